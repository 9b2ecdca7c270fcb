import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { ServedGroup } from '../discovery/served-groups.js';
import type { DocumentInfo } from './document-info.js';
import { bearerTokenScheme } from './document-info.js';
import { kindSchemas } from './kind-schemas.js';
import type { Parameter } from './query-parameters.js';
import { referencedMetaSchemas } from './referenced-definitions.js';
import type { Operation, PathItem } from './resource-paths.js';
import { resourcePaths } from './resource-paths.js';
import { sortedByKey } from './sorted-by-key.js';
import { toSwaggerSchema } from './swagger-schema.js';

/** The Swagger 2.0 document of everything served (/openapi/v2), with the same definition names as OpenAPI v3. */
export function swaggerDocument(groups: ServedGroup[], info: DocumentInfo) {
  const paths: Record<string, object> = {};
  const schemas: Record<string, JSONSchemaProps> = {};
  for (const resource of groups.flatMap((g) => g.versions.flatMap((v) => v.resources))) {
    for (const item of resourcePaths(resource)) paths[item.path] = pathItem(item);
    Object.assign(schemas, kindSchemas(resource));
  }
  Object.assign(schemas, referencedMetaSchemas([paths, schemas]));
  return {
    swagger: '2.0',
    info,
    paths: sortedByKey(paths),
    definitions: sortedByKey(Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, toSwaggerSchema(s)]))),
    securityDefinitions: { BearerToken: bearerTokenScheme },
    security: [{ BearerToken: [] }],
  };
}

function pathItem(item: PathItem): object {
  return {
    ...Object.fromEntries(item.operations.map((o) => [o.method, operation(o)])),
    ...(item.parameters.length ? { parameters: item.parameters.map(parameter) } : {}),
  };
}

function operation(o: Operation): object {
  const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
  const body = o.body ? [{ name: 'body', in: 'body', ...(o.body.required ? { required: true } : {}), schema: ref(o.body.schema) }] : [];
  return {
    description: o.description,
    consumes: o.body?.contentTypes ?? ['*/*'],
    produces: o.produces,
    schemes: ['https'],
    tags: [o.tag],
    operationId: o.operationId,
    ...(body.length || o.parameters.length ? { parameters: [...body, ...o.parameters.map(parameter)] } : {}),
    responses: Object.fromEntries(o.responses.map((r) => [r.code, { description: r.description, ...(r.schema ? { schema: ref(r.schema) } : {}) }])),
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version },
  };
}

function parameter(p: Parameter): object {
  return { uniqueItems: true, type: p.type, description: p.description, name: p.name, in: p.in, ...(p.in === 'path' ? { required: true } : {}) };
}
