/**
 * Pruning of unknown fields, as kube-apiserver's structural pruning (apiextensions-apiserver schema/pruning) and its
 * removal of non-nullable nulls without defaults (schema/defaulting PruneNonNullableNullsWithoutDefaults) do it.
 * Only the structural part of a schema counts: properties, additionalProperties and items, not allOf/anyOf/oneOf/not.
 */
import type { JSONSchemaProps } from '../lib/openapi/json-schema-props.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

type JSONObject = Record<string, unknown>;

function isObject(x: unknown): x is JSONObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function property(s: JSONSchemaProps, name: string): JSONSchemaProps | undefined {
  const props = s.properties;
  return props && Object.prototype.hasOwnProperty.call(props, name) ? props[name] : undefined;
}

/** additionalProperties is set (a schema, true or false): every other key is kept, its value pruned by that schema. */
function hasAdditional(s: JSONSchemaProps): boolean {
  return s.additionalProperties !== undefined && s.additionalProperties !== null;
}

/** The schema of additionalProperties values; undefined for `true`/`false` (nothing declared inside them). */
function additionalSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const ap = s.additionalProperties;
  return typeof ap === 'object' && ap !== null ? ap : undefined;
}

function itemsSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const items = s?.items;
  return typeof items === 'object' && items !== null && !Array.isArray(items) ? items : undefined;
}

function appendKey(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

function appendIndex(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/**
 * Removes the fields of `obj` that `schema` does not declare, in place, and returns their paths sorted as kube
 * reports unknown fields (`spec.bogus`, `spec.list[0].bogus`). apiVersion, kind and metadata are kept at the resource
 * root (when `isResourceRoot`) and in embedded resources.
 */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps | undefined, isResourceRoot: boolean): string[] {
  let s = schema;
  if (isResourceRoot) s = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  const unknown: string[] = [];
  prune(obj, s, '', unknown);
  return unknown.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function prune(x: unknown, s: JSONSchemaProps | undefined, parent: string, unknown: string[]): void {
  if (s && s['x-kubernetes-preserve-unknown-fields'] === true) {
    skipPrune(x, s, parent, unknown);
    return;
  }
  if (isObject(x)) {
    if (!s) {
      for (const k of Object.keys(x)) {
        unknown.push(appendKey(parent, k));
        delete x[k];
      }
      return;
    }
    for (const k of Object.keys(x)) {
      if (s['x-kubernetes-embedded-resource'] === true && META_FIELDS.has(k)) continue;
      const prop = property(s, k);
      if (prop) prune(x[k], prop, appendKey(parent, k), unknown);
      else if (hasAdditional(s)) prune(x[k], additionalSchema(s), appendKey(parent, k), unknown);
      else {
        if (!META_FIELDS.has(k) || parent !== '') unknown.push(appendKey(parent, k));
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => prune(v, items, appendIndex(parent, i), unknown));
  }
}

/** Below x-kubernetes-preserve-unknown-fields: unknown fields stay, declared ones are pruned by their schema. */
function skipPrune(x: unknown, s: JSONSchemaProps | undefined, parent: string, unknown: string[]): void {
  if (!s) return;
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      if (s['x-kubernetes-embedded-resource'] === true && META_FIELDS.has(k)) continue;
      const prop = property(s, k);
      if (prop) prune(x[k], prop, appendKey(parent, k), unknown);
      else if (hasAdditional(s)) prune(x[k], additionalSchema(s), appendKey(parent, k), unknown);
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => skipPrune(v, items, appendIndex(parent, i), unknown));
  }
}

function hasDefault(s: JSONSchemaProps): boolean {
  return s.default !== undefined && s.default !== null;
}

function fieldSchema(s: JSONSchemaProps | undefined, k: string): JSONSchemaProps | undefined {
  if (!s) return undefined;
  return property(s, k) ?? (hasAdditional(s) ? additionalSchema(s) : undefined);
}

/**
 * Removes null values of fields that are neither nullable nor defaulted (kube does this right after pruning; nulls of
 * defaulted fields are replaced by the default later). Array items are kept.
 */
export function pruneNonNullableNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      const schema = fieldSchema(s, k);
      if (x[k] === null && schema && schema.nullable !== true && !hasDefault(schema)) delete x[k];
      else pruneNonNullableNulls(x[k], schema);
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (const v of x) pruneNonNullableNulls(v, items);
  }
}
