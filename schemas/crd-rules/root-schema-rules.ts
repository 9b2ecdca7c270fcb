/**
 * The rules kube-apiserver v1.32 applies to the root of a CRD version's openAPIV3Schema only
 * (apiextensions validation validateCustomResourceDefinitionValidation): with the status subresource enabled the root
 * must be an object and may only use the keywords that survive extracting `properties.status`; and the root may not
 * be nullable.
 */
import { goSharpV } from '../../lib/go/go-values.js';
import type { SchemaCause } from '../validation-errors.js';
import * as fe from './field-errors.js';
import { child, field, str, type SchemaNode } from './schema-node.js';

/** The fields of apiextensions.JSONSchemaProps in declaration order, by JSON name. */
const FIELDS_IN_ORDER = [
  'id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum',
  'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties',
  'additionalProperties', 'patternProperties', 'dependencies', 'additionalItems', 'definitions', 'externalDocs', 'example',
  'nullable', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];

/** kube's allowedFieldsAtRootSchema (Go field names, printed in the message) and their JSON names. */
const ALLOWED_AT_ROOT: [string, string][] = [
  ['Description', 'description'], ['Type', 'type'], ['Format', 'format'], ['Title', 'title'], ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'], ['Minimum', 'minimum'], ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'], ['MinLength', 'minLength'], ['Pattern', 'pattern'], ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'], ['UniqueItems', 'uniqueItems'], ['MultipleOf', 'multipleOf'], ['Required', 'required'],
  ['Items', 'items'], ['Properties', 'properties'], ['ExternalDocs', 'externalDocs'], ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'], ['XValidations', 'x-kubernetes-validations'],
];
const ALLOWED_JSON = new Set(ALLOWED_AT_ROOT.map(([, json]) => json));
const ALLOWED_DETAIL = `only [${ALLOWED_AT_ROOT.map(([goName]) => goName).join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`;

/** Whether a field holds a non-zero Go value (strings non-empty, bools true, pointers/slices/maps non-nil). */
function nonZero(s: SchemaNode, name: string): boolean {
  const v = field(s, name);
  if (v === undefined) return false;
  if (typeof v === 'string') return v !== '';
  if (typeof v === 'boolean') return v || name === 'x-kubernetes-preserve-unknown-fields'; // a *bool is set even when false
  return true;
}

/** The root rules of a schema at `path`, for a version with (`statusEnabled`) or without the status subresource. */
export function rootSchemaViolations(schema: SchemaNode, path: string, statusEnabled: boolean): SchemaCause[] {
  const out: SchemaCause[] = [];
  if (statusEnabled) {
    for (const name of FIELDS_IN_ORDER) {
      if (!nonZero(schema, name)) continue;
      if (name === 'type') {
        const type = str(schema, 'type');
        if (type === 'object') continue;
        out.push(fe.invalid(child(path, 'type'), type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
        break;
      }
      if (!ALLOWED_JSON.has(name)) {
        // kube prints the Go struct (%#v of apiextensions.JSONSchemaProps) as the value; we print the schema's JSON
        out.push(fe.invalid(path, new fe.GoPrinted(goSharpV(schema)), ALLOWED_DETAIL));
        break;
      }
    }
  }
  if (field(schema, 'nullable') === true) out.push(fe.forbidden(child(path, 'nullable'), 'nullable cannot be true at the root'));
  return out;
}
