/**
 * Which schema fields end up non-zero in kube's structural form of a schema (apiextensions-apiserver schema.Structural
 * for a structural node, schema.NestedValueValidation for a node under allOf/anyOf/oneOf/not). kube compares these forms
 * with reflect.DeepEqual (the x-kubernetes-int-or-string patterns, the root metadata), so Go's zero values and its
 * nil-versus-empty distinctions decide: `enum: []` stays nil, `required: []` does not.
 */
import { additionalAllows, field, flag, hasAdditional, isNode, list, mapSize, str, type SchemaNode } from './schema-node.js';

const STRINGS = new Set(['type', 'description', 'title', 'format', 'pattern']);
const BOOLS = new Set([
  'nullable',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'uniqueItems',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
]);
const POINTERS = new Set([
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'default',
  'not',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
]);
/** Slices copied as they are: an empty array is non-nil. */
const SLICES = new Set(['required', 'x-kubernetes-list-map-keys', 'x-kubernetes-validations']);
/** Slices built by appending: an empty array stays nil. */
const APPENDED = new Set(['enum', 'allOf', 'anyOf', 'oneOf']);

/** Whether field `name` of `s` is non-zero in the structural form (`nested`: as a NestedValueValidation). */
export function structurallySet(s: SchemaNode, name: string, nested: boolean): boolean {
  if (STRINGS.has(name)) return str(s, name) !== '';
  if (BOOLS.has(name)) return flag(s, name);
  if (POINTERS.has(name)) return field(s, name) !== undefined;
  if (SLICES.has(name)) return Array.isArray(field(s, name));
  if (APPENDED.has(name)) return list(s, name).length > 0;
  switch (name) {
    case 'properties':
      return nested ? isNode(field(s, name)) : mapSize(s, name) > 0;
    case 'items':
      return isNode(field(s, name));
    case 'additionalProperties':
      return nested ? additionalAllows(s) : hasAdditional(s);
    default:
      return false; // not part of the structural form (example, externalDocs, ...)
  }
}

/** The fields of `s` that are non-zero in its structural form, except those in `ignore`. */
export function structuralFieldsSet(s: SchemaNode, nested: boolean, ignore: ReadonlySet<string> = new Set()): string[] {
  return Object.keys(s).filter((k) => !ignore.has(k) && structurallySet(s, k, nested));
}
