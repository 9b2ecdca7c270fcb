/**
 * The uniqueness invariants of `x-kubernetes-list-type: set` and `map` lists, checked as kube-apiserver v1.32 checks
 * custom resources (apiextensions-apiserver schema/listtype ValidateListSetsAndMaps):
 * - a set's items are unique (scalars by value, objects and lists by their JSON);
 * - a map list's items are objects (or null), unique by their `x-kubernetes-list-map-keys` fields. A missing key field
 *   (or a null item) is "unspecified", which equals only another unspecified key, not null.
 * Each duplicated value is reported once, at its second occurrence (`spec.ports[1]: Duplicate value:
 * map[string]interface {}{"port":80}`). Lists are found through properties, additionalProperties and items, nested
 * lists included, whatever the list type of their parents.
 *
 * Linear in the size of the value: items are compared through a canonical encoding in a Map, never pairwise.
 */
import { goJSON } from '../lib/go/go-values.js';
import type { JSONSchemaProps } from '../lib/openapi/json-schema-props.js';
import type { SchemaCause } from './validation-errors.js';
import * as fe from './crd-rules/field-errors.js';

type JSONObject = Record<string, unknown>;

function isObject(x: unknown): x is JSONObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * The identity of a value as kube compares set items and keys: Go's `==` on scalars, `json.Marshal` text for objects
 * and lists. One Go JSON text serves both: strings are quoted, objects and lists bracketed. (kube also tells an
 * int64 1 from a float64 1.0 among scalars; kapi's decoded JSON numbers cannot.)
 */
function identity(x: unknown): string {
  return goJSON(x);
}

/** The indexes of the second occurrence of each value that occurs more than once, in order. */
function secondOccurrences(keys: string[]): number[] {
  const counts = new Map<string, number>();
  const out: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    const n = counts.get(keys[i]) ?? 0;
    counts.set(keys[i], n + 1);
    if (n === 1) out.push(i);
  }
  return out;
}

function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

function setViolations(path: string, items: unknown[], out: SchemaCause[]): void {
  if (items.length <= 1) return;
  for (const i of secondOccurrences(items.map(identity))) out.push(fe.duplicate(index(path, i), items[i]));
}

/** The key fields an item has (a null item has none): the key kube compares and reports. */
function keyOf(item: JSONObject | null, keyFields: string[]): JSONObject {
  if (item === null) return {};
  return Object.fromEntries(keyFields.filter((k) => Object.hasOwn(item, k)).map((k) => [k, item[k]]));
}

function mapViolations(path: string, items: unknown[], keyFields: string[], out: SchemaCause[]): void {
  const notObject = items.findIndex((x) => x !== null && !isObject(x));
  if (notObject >= 0) {
    out.push(fe.invalid(index(path, notObject), items[notObject], 'must be an object for an array of list-type map'));
    return;
  }
  if (items.length <= 1) return;
  // A missing key field is left out of the key, so it equals only another missing one (not null).
  const keys = (items as (JSONObject | null)[]).map((item) => keyOf(item, keyFields));
  for (const i of secondOccurrences(keys.map(identity))) out.push(fe.duplicate(index(path, i), keys[i]));
}

function visitList(path: string, s: JSONSchemaProps, items: unknown[], out: SchemaCause[]): void {
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') setViolations(path, items, out);
  else if (listType === 'map') mapViolations(path, items, s['x-kubernetes-list-map-keys'] ?? [], out);
  if (s.items) for (let i = 0; i < items.length; i++) visit(index(path, i), s.items, items[i], out);
}

function visitObject(path: string, s: JSONSchemaProps, obj: JSONObject, out: SchemaCause[]): void {
  // kube walks a Go map (no order); kapi reports sibling fields in name order
  const names = Object.keys(obj).sort();
  const additional = s.additionalProperties;
  if (typeof additional === 'object' && additional !== null) {
    for (const k of names) visit(`${path}[${k}]`, additional, obj[k], out);
  }
  if (s.properties) {
    for (const k of names) {
      if (Object.hasOwn(s.properties, k)) visit(path ? `${path}.${k}` : k, s.properties[k], obj[k], out);
    }
  }
}

function visit(path: string, s: JSONSchemaProps, value: unknown, out: SchemaCause[]): void {
  if (Array.isArray(value)) visitList(path, s, value, out);
  else if (isObject(value)) visitObject(path, s, value, out);
}

/** Whether any node of the schema is a set or map list (when not, there is nothing to check). */
export function hasListSetsOrMaps(s: JSONSchemaProps): boolean {
  const lt = s['x-kubernetes-list-type'];
  if (lt === 'set' || lt === 'map') return true;
  const children = [...Object.values(s.properties ?? {}), ...(typeof s.additionalProperties === 'object' && s.additionalProperties ? [s.additionalProperties] : []), ...(s.items ? [s.items] : [])];
  return children.some(hasListSetsOrMaps);
}

/** The violations of set and map list uniqueness in a resource, with field paths from its root. */
export function listSetAndMapViolations(obj: unknown, schema: JSONSchemaProps): SchemaCause[] {
  const out: SchemaCause[] = [];
  if (isObject(obj)) visitObject('', schema, obj, out);
  return out;
}
