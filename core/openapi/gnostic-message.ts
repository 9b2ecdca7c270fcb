import protobuf from 'protobufjs';
import { oneofMember } from './gnostic-oneof.js';
import { gnosticYaml } from './gnostic-yaml.js';

type Json = unknown;
type JsonObject = Record<string, Json>;
/** A message as protobufjs encodes it: field name → value. */
export type Message = Record<string, unknown>;

/**
 * A JSON OpenAPI document (or part of one) as the gnostic message of `type`, the way gnostic's compiler reads it
 * (kube-openapi's handlers encode `openapi_v2.ParseDocument(json)` / `openapi_v3.ParseDocument(json)`):
 * - a field is read from the JSON key of its name in lowerCamelCase (`_ref` from `$ref`);
 * - maps become repeated `Named*` {name, value} pairs in the JSON's key order: whole objects for the map messages
 *   (Definitions, Properties, …), the `x-` keys for vendor/specification extensions, the `/…` keys of Paths and the
 *   status-code keys of Responses;
 * - Any values (extensions, defaults, examples, enums) become their YAML text;
 * - scalars at their zero value are left out, as Go's proto3 encoding does; a present object is always encoded.
 * Keys gnostic does not know are dropped.
 */
export function gnosticMessage(type: protobuf.Type, json: Json): Message {
  if (type.name === 'Any') return { yaml: gnosticYaml(json) };
  if (type.oneofs?.['oneof']) return oneofMessage(type, json);
  if (listMessages.has(type.name)) return listMessage(type, json);
  const object = isObject(json) ? json : {};
  const out: Message = {};
  for (const { field, key, keys } of planOf(type)) {
    const value = keys ? namedPairs(field, object, keys) : fieldValue(field, object[key], false);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

/** How each field of a plain message is read: from one JSON key, or from the keys that match a pattern. */
interface FieldPlan {
  field: protobuf.Field;
  key: string;
  keys?: RegExp;
}

const plans = new Map<protobuf.Type, FieldPlan[]>();

function planOf(type: protobuf.Type): FieldPlan[] {
  let plan = plans.get(type);
  if (!plan) {
    plan = type.fieldsArray.map((field) => ({ field: field.resolve(), key: jsonKey(field.name), keys: keyedField(type, field) }));
    plans.set(type, plan);
  }
  return plan;
}

/** Messages of one repeated field, read from a JSON array or a single value. */
const listMessages = new Set(['StringArray', 'TypeItem', 'ItemsItem']);

/** A string (TypeItem's `type: object`) is a list of one; an object (ItemsItem's `items: {…}`) is a list of one schema. */
function listMessage(type: protobuf.Type, json: Json): Message {
  const field = type.fieldsArray[0]!;
  const items = Array.isArray(json) ? json : [json];
  return { [field.name]: fieldValue(field, items, false) ?? [] };
}

function oneofMessage(type: protobuf.Type, json: Json): Message {
  const member = oneofMember(type, json);
  if (!member) return {};
  return { [member]: fieldValue(type.fields[member]!, json, true) };
}

/** Fields whose value is built from the JSON object's keys that match: every key, the `x-` ones, paths, status codes. */
function keyedField(type: protobuf.Type, field: protobuf.Field): RegExp | undefined {
  if (field.name === 'vendor_extension' || field.name === 'specification_extension') return /^x-/;
  if (field.repeated && field.name === 'additional_properties') return /^/;
  return patternFields[`${type.name}.${field.name}`];
}

const patternFields: Record<string, RegExp> = {
  'Paths.path': /^\//,
  'Callback.path': /^/,
  'Responses.response_code': /^([0-9]{3})$|^(default)$/,
  'Responses.response_or_reference': /^([0-9X]{3})$/,
};

function namedPairs(field: protobuf.Field, object: JsonObject, keys: RegExp): Message[] | undefined {
  const pair = field.resolvedType as protobuf.Type;
  const valueField = pair.fields['value']!;
  const pairs = Object.entries(object)
    .filter(([key, value]) => keys.test(key) && value !== undefined)
    .map(([name, value]) => ({ name, value: fieldValue(valueField, value, false) }));
  return pairs.length ? pairs : undefined;
}

/** The field's value from JSON; `keepZero` for oneof members and list items, which Go encodes even when zero. */
function fieldValue(field: protobuf.Field, json: Json, keepZero: boolean): unknown {
  if (json === undefined) return undefined;
  if (field.repeated) {
    if (!Array.isArray(json)) return undefined;
    const items = json.map((item) => single(field, item, true)).filter((item) => item !== undefined);
    return items.length ? items : undefined;
  }
  return single(field, json, keepZero);
}

function single(field: protobuf.Field, json: Json, keepZero: boolean): unknown {
  if (field.resolvedType instanceof protobuf.Type) return gnosticMessage(field.resolvedType, json);
  const value = scalar(field.type, json);
  if (value === undefined || (!keepZero && (value === '' || value === 0 || value === false))) return undefined;
  return value;
}

/** A JSON value as a proto scalar, as gnostic's helpers read YAML scalars (integers and null are also strings). */
function scalar(type: string, json: Json): string | number | boolean | undefined {
  switch (type) {
    case 'string':
      if (typeof json === 'string') return json;
      if (json === null) return '';
      return Number.isInteger(json) ? String(json) : undefined;
    case 'bool':
      return typeof json === 'boolean' ? json : undefined;
    case 'int64':
      return Number.isInteger(json) ? (json as number) : undefined;
    case 'double':
      return typeof json === 'number' ? json : undefined;
    default:
      return undefined;
  }
}

/** The JSON key gnostic reads a field from: `base_path` from `basePath`, `_ref` from `$ref`. */
function jsonKey(fieldName: string): string {
  if (fieldName === '_ref') return '$ref';
  return fieldName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function isObject(json: Json): json is JsonObject {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}
