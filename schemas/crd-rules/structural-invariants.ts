/**
 * The invariants of a structural schema, as kube-apiserver v1.32 checks them on a CRD's openAPIV3Schema
 * (apiextensions-apiserver schema.ValidateStructural: validateStructuralInvariants and validateNestedValueValidation):
 * every specified node has a type (unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields), arrays
 * have items, allOf/anyOf/oneOf/not only validate values (no type, default, description, extensions, ...), the root is
 * an object without additionalProperties, metadata at the root only restricts name and generateName, and
 * x-kubernetes-embedded-resource / x-kubernetes-int-or-string are used consistently.
 */
import * as fe from './field-errors.js';
import { goRegexpError } from './go-regexp-syntax.js';
import {
  additionalSchema,
  child,
  entries,
  field,
  flag,
  hasAdditional,
  index,
  isNode,
  itemsSchema,
  key,
  list,
  mapSize,
  mapValue,
  schemaList,
  str,
  type SchemaNode,
} from './schema-node.js';
import { structuralFieldsSet, structurallySet } from './structural-fields.js';
import type { SchemaCause } from '../validation-errors.js';

export type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE_DETAIL: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** A value validation that is exactly `{type: <type>}` (kube compares it with reflect.DeepEqual). */
function isOnlyType(s: SchemaNode, type: string): boolean {
  return str(s, 'type') === type && structuralFieldsSet(s, true, new Set(['type'])).length === 0;
}

/** anyOf: [{type: integer}, {type: string}] */
function isIntOrStringAnyOf(s: SchemaNode): boolean {
  const anyOf = schemaList(s, 'anyOf');
  return anyOf.length === 2 && isOnlyType(anyOf[0]!, 'integer') && isOnlyType(anyOf[1]!, 'string');
}

/** allOf: [{anyOf: [{type: integer}, {type: string}]}, ...] */
function isIntOrStringAllOf(s: SchemaNode): boolean {
  const allOf = schemaList(s, 'allOf');
  return allOf.length >= 1 && isIntOrStringAnyOf(allOf[0]!);
}

/** validateValueValidation: the junctors of a node and its pattern. */
function valueValidation(s: SchemaNode, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string, out: SchemaCause[]): void {
  if (!skipAnyOf) schemaList(s, 'anyOf').forEach((x, i) => nestedValueValidation(x, false, index(child(path, 'anyOf'), i), out));
  schemaList(s, 'allOf').forEach((x, i) => nestedValueValidation(x, skipFirstAllOfAnyOf && i === 0, index(child(path, 'allOf'), i), out));
  schemaList(s, 'oneOf').forEach((x, i) => nestedValueValidation(x, false, index(child(path, 'oneOf'), i), out));
  const not = field(s, 'not');
  if (isNode(not)) nestedValueValidation(not, false, child(path, 'not'), out);
  const pattern = str(s, 'pattern');
  if (pattern !== '') {
    const err = goRegexpError(pattern);
    if (err) out.push(fe.invalid(child(path, 'pattern'), pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
}

/** validateNestedValueValidation: a schema under allOf/anyOf/oneOf/not may only validate values. */
function nestedValueValidation(s: SchemaNode, skipAnyOf: boolean, path: string, out: SchemaCause[]): void {
  valueValidation(s, skipAnyOf, false, path, out);
  const items = itemsSchema(s);
  if (items) nestedValueValidation(items, false, child(path, 'items'), out);
  for (const [k, p] of entries(s, 'properties')) nestedValueValidation(p, false, key(child(path, 'properties'), k), out);

  const forbiddenIfSet: [string, string][] = [
    ['type', 'must be empty to be structural'],
    ['additionalProperties', 'must be undefined to be structural'],
    ['default', 'must be undefined to be structural'],
    ['title', 'must be empty to be structural'],
    ['description', 'must be empty to be structural'],
    ['nullable', 'must be false to be structural'],
    ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
    ['x-kubernetes-embedded-resource', 'must be false to be structural'],
    ['x-kubernetes-int-or-string', 'must be false to be structural'],
    ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
    ['x-kubernetes-list-type', 'must be undefined to be structural'],
    ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ];
  for (const [name, detail] of forbiddenIfSet) {
    const set = name === 'x-kubernetes-list-map-keys' ? list(s, name).length > 0 : structurallySet(s, name, true);
    if (set) out.push(fe.forbidden(child(path, name), detail));
  }
  if (list(s, 'x-kubernetes-validations').length > 0) out.push(fe.forbidden(child(path, 'x-kubernetes-validations'), 'must be empty to be structural'));
  // reasoning about metadata could restrict it in ways kube does not want
  if (mapValue(s, 'properties', 'metadata')) {
    out.push(fe.forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  }
}

/** The root metadata may restrict name and generateName, nothing else. */
function rootMetadataSpecifiesMore(metadata: SchemaNode): boolean {
  const ignore = new Set(['type', 'default']);
  const props = field(metadata, 'properties');
  if (isNode(props)) {
    const names = Object.keys(props);
    const name = names.includes('name');
    const generateName = names.includes('generateName');
    if ((name && generateName && names.length === 2) || ((name || generateName) && names.length === 1)) ignore.add('properties');
  }
  return structuralFieldsSet(metadata, false, ignore).length > 0;
}

function metadataInvariants(metadata: SchemaNode, checkMetadata: boolean, level: Level, path: string, out: SchemaCause[]): void {
  const type = str(metadata, 'type');
  if (checkMetadata && type !== 'object') out.push(fe.invalid(child(path, 'type'), type, 'must be object'));
  if (level === 'root' && rootMetadataSpecifiesMore(metadata)) {
    out.push(fe.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

/** validateStructuralInvariants for the node `s` at `path`. */
export function structuralInvariants(s: SchemaNode, level: Level, path: string, out: SchemaCause[]): void {
  const type = str(s, 'type');
  const items = itemsSchema(s);
  if (type === 'array' && !items) out.push(fe.required(child(path, 'items'), 'must be specified'));
  if (items) structuralInvariants(items, 'item', child(path, 'items'), out);
  for (const [k, p] of entries(s, 'properties')) structuralInvariants(p, 'field', key(child(path, 'properties'), k), out);

  if (hasAdditional(s)) {
    if (level === 'root') out.push(fe.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    const ap = additionalSchema(s);
    if (ap) structuralInvariants(ap, 'field', child(path, 'additionalProperties'), out);
  }

  const intOrString = flag(s, 'x-kubernetes-int-or-string');
  const preserve = flag(s, 'x-kubernetes-preserve-unknown-fields');
  const embedded = flag(s, 'x-kubernetes-embedded-resource');
  if (intOrString && preserve) {
    out.push(fe.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (intOrString && embedded) {
    out.push(fe.invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }

  valueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), path, out);

  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    out.push(type === '' ? fe.required(child(path, 'type'), detail) : fe.invalid(child(path, 'type'), type, detail));
  } else if (type === '' && !intOrString && !preserve) {
    out.push(fe.required(child(path, 'type'), EMPTY_TYPE_DETAIL[level]));
  }
  if (embedded && hasAdditional(s)) {
    out.push(fe.forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (level === 'root' && type !== '' && type !== 'object') out.push(fe.invalid(child(path, 'type'), type, 'must be object at the root'));

  // the type meta and object meta of a resource (the root, or an embedded one)
  const checkMetadata = level === 'root' || embedded;
  const properties = child(path, 'properties');
  for (const name of ['kind', 'apiVersion']) {
    const p = mapValue(s, 'properties', name);
    if (p && checkMetadata && str(p, 'type') !== 'string') out.push(fe.invalid(child(key(properties, name), 'type'), str(p, 'type'), 'must be string'));
  }
  const metadata = mapValue(s, 'properties', 'metadata');
  if (metadata) metadataInvariants(metadata, checkMetadata, level, key(properties, 'metadata'), out);

  if (embedded && !preserve && mapSize(s, 'properties') === 0) {
    out.push(fe.required(properties, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}
