import type protobuf from 'protobufjs';

/**
 * Which member of a gnostic oneof message a JSON value becomes. gnostic's compiler tries every member and keeps the
 * last one that parses without error; for the documents kube-apiserver writes that comes down to these rules:
 * a boolean is `boolean` (additionalProperties: false), a `$ref` object is the reference, parameters and security
 * schemes go by their `in` / `type` / `flow`, a response schema of type `file` is a FileSchema, and a schema default is
 * a number, boolean or string (anything else leaves gnostic's DefaultType empty). Otherwise the first member.
 */
export function oneofMember(type: protobuf.Type, json: unknown): string | undefined {
  const members = type.oneofs['oneof']!.oneof;
  const has = (name: string) => members.includes(name);
  if (typeof json === 'boolean') return has('boolean') ? 'boolean' : undefined;
  const byType = byMessage[type.fullName];
  if (byType) return byType(json);
  if (isObject(json) && '$ref' in json) {
    const reference = members.find((m) => m === 'reference' || m === 'json_reference');
    if (reference) return reference;
  }
  return members[0];
}

const byMessage: Record<string, (json: unknown) => string | undefined> = {
  '.openapi.v2.Parameter': (json) => (field(json, 'in') === 'body' ? 'body_parameter' : 'non_body_parameter'),
  '.openapi.v2.NonBodyParameter': (json) => nonBodyParameters[String(field(json, 'in'))],
  '.openapi.v2.SchemaItem': (json) => (field(json, 'type') === 'file' ? 'file_schema' : 'schema'),
  '.openapi.v2.SecurityDefinitionsItem': (json) => {
    const type = field(json, 'type');
    if (type === 'oauth2') return oauth2Flows[String(field(json, 'flow'))];
    return type === 'basic' ? 'basic_authentication_security' : type === 'apiKey' ? 'api_key_security' : undefined;
  },
  '.openapi.v3.DefaultType': (json) => (typeof json === 'string' ? 'string' : typeof json === 'number' ? 'number' : undefined),
};

const nonBodyParameters: Record<string, string> = {
  header: 'header_parameter_sub_schema',
  formData: 'form_data_parameter_sub_schema',
  query: 'query_parameter_sub_schema',
  path: 'path_parameter_sub_schema',
};

const oauth2Flows: Record<string, string> = {
  implicit: 'oauth2_implicit_security',
  password: 'oauth2_password_security',
  application: 'oauth2_application_security',
  accessCode: 'oauth2_access_code_security',
};

function isObject(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

function field(json: unknown, key: string): unknown {
  return isObject(json) ? json[key] : undefined;
}
