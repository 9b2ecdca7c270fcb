/**
 * Applies the schema markers of a type or a field to its schema, as controller-gen does: each marker sets its
 * OpenAPI keyword, refused on a schema of the wrong type or when it contradicts another (Minimum > Maximum).
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { GenCrdError, type SourceLocation } from './gen-crd-error.js';
import type { Marker } from './markers.js';

const ruleLocations = new WeakMap<object, SourceLocation>();

/** Where an x-kubernetes-validations rule built here was written. */
export function ruleLocation(rule: object): SourceLocation | undefined {
  return ruleLocations.get(rule);
}

const numeric = ['integer', 'number'];
const schemaTypes = ['string', 'integer', 'number', 'boolean', 'object', 'array'];

function typeOf(schema: JSONSchemaProps): string {
  return schema['x-kubernetes-int-or-string'] ? 'int-or-string' : schema.type ?? 'any';
}

function requireType(schema: JSONSchemaProps, m: Marker, types: string[], what: string): void {
  if (!types.includes(typeOf(schema))) throw GenCrdError.at(m.loc, `+${m.definition.name} applies to ${what}, not to ${typeOf(schema) === 'any' ? 'a schema without a type' : `type ${typeOf(schema)}`}`);
}

function oneOf(m: Marker, allowed: string[]): string {
  const v = m.value as string;
  if (!allowed.includes(v)) throw GenCrdError.at(m.loc, `+${m.definition.name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(v)}`);
  return v;
}

function nonNegative(m: Marker): number {
  const v = m.value as number;
  if (v < 0) throw GenCrdError.at(m.loc, `+${m.definition.name} must not be negative`);
  return v;
}

/** A value for this schema: `{}` is an empty list for an array; Enum entries of a string are strings. */
function valueFor(schema: JSONSchemaProps, v: unknown): unknown {
  if (schema.type === 'array' && v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return [];
  if (schema.type === 'string' && (typeof v === 'number' || typeof v === 'boolean')) return String(v);
  return v;
}

const bounds: [lower: keyof JSONSchemaProps, upper: keyof JSONSchemaProps][] = [
  ['minimum', 'maximum'],
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
  ['minProperties', 'maxProperties'],
];

function checkBounds(schema: JSONSchemaProps, m: Marker): void {
  for (const [lower, upper] of bounds) {
    const lo = schema[lower] as number | undefined;
    const hi = schema[upper] as number | undefined;
    if (lo !== undefined && hi !== undefined && lo > hi) throw GenCrdError.at(m.loc, `${lower} ${lo} is greater than ${upper} ${hi}`);
  }
}

function applyOne(schema: JSONSchemaProps, m: Marker): void {
  const v = m.value;
  switch (m.definition.name) {
    case 'kubebuilder:validation:Minimum':
      requireType(schema, m, numeric, 'numbers');
      schema.minimum = v as number;
      break;
    case 'kubebuilder:validation:Maximum':
      requireType(schema, m, numeric, 'numbers');
      schema.maximum = v as number;
      break;
    case 'kubebuilder:validation:ExclusiveMinimum':
      requireType(schema, m, numeric, 'numbers');
      schema.exclusiveMinimum = v as boolean;
      break;
    case 'kubebuilder:validation:ExclusiveMaximum':
      requireType(schema, m, numeric, 'numbers');
      schema.exclusiveMaximum = v as boolean;
      break;
    case 'kubebuilder:validation:MultipleOf':
      requireType(schema, m, numeric, 'numbers');
      if ((v as number) <= 0) throw GenCrdError.at(m.loc, '+kubebuilder:validation:MultipleOf must be greater than 0');
      schema.multipleOf = v as number;
      break;
    case 'kubebuilder:validation:MinLength':
      requireType(schema, m, ['string'], 'strings');
      schema.minLength = nonNegative(m);
      break;
    case 'kubebuilder:validation:MaxLength':
      requireType(schema, m, ['string'], 'strings');
      schema.maxLength = nonNegative(m);
      break;
    case 'kubebuilder:validation:Pattern':
      requireType(schema, m, ['string'], 'strings');
      schema.pattern = v as string;
      break;
    case 'kubebuilder:validation:MinItems':
      requireType(schema, m, ['array'], 'arrays');
      schema.minItems = nonNegative(m);
      break;
    case 'kubebuilder:validation:MaxItems':
      requireType(schema, m, ['array'], 'arrays');
      schema.maxItems = nonNegative(m);
      break;
    case 'kubebuilder:validation:UniqueItems':
      requireType(schema, m, ['array'], 'arrays');
      schema.uniqueItems = v as boolean;
      break;
    case 'kubebuilder:validation:MinProperties':
      requireType(schema, m, ['object'], 'objects');
      schema.minProperties = nonNegative(m);
      break;
    case 'kubebuilder:validation:MaxProperties':
      requireType(schema, m, ['object'], 'objects');
      schema.maxProperties = nonNegative(m);
      break;
    case 'kubebuilder:validation:Enum':
      schema.enum = (v as unknown[]).map((e) => valueFor(schema, e));
      break;
    case 'kubebuilder:validation:Format':
      schema.format = v as string;
      break;
    case 'kubebuilder:validation:Type':
      schema.type = oneOf(m, schemaTypes);
      break;
    case 'kubebuilder:validation:XIntOrString':
      delete schema.type;
      delete schema.format;
      schema['x-kubernetes-int-or-string'] = true;
      schema.anyOf = [{ type: 'integer' }, { type: 'string' }];
      break;
    case 'kubebuilder:validation:XEmbeddedResource':
      requireType(schema, m, ['object'], 'objects');
      schema['x-kubernetes-embedded-resource'] = true;
      break;
    case 'kubebuilder:validation:XValidation': {
      const a = m.args;
      const rule: NonNullable<JSONSchemaProps['x-kubernetes-validations']>[number] = { rule: a.rule as string };
      for (const key of ['message', 'messageExpression', 'reason', 'fieldPath'] as const) if (a[key] !== undefined) rule[key] = a[key] as string;
      if (a.optionalOldSelf !== undefined) rule.optionalOldSelf = a.optionalOldSelf as boolean;
      ruleLocations.set(rule, m.loc);
      (schema['x-kubernetes-validations'] ??= []).push(rule);
      break;
    }
    case 'kubebuilder:default':
      schema.default = valueFor(schema, v);
      break;
    case 'kubebuilder:example':
      schema.example = valueFor(schema, v);
      break;
    case 'kubebuilder:pruning:PreserveUnknownFields':
      schema['x-kubernetes-preserve-unknown-fields'] = true;
      break;
    case 'nullable':
      schema.nullable = true;
      break;
    case 'listType':
      requireType(schema, m, ['array'], 'arrays');
      schema['x-kubernetes-list-type'] = oneOf(m, ['atomic', 'set', 'map']) as 'atomic' | 'set' | 'map';
      break;
    case 'listMapKey':
      requireType(schema, m, ['array'], 'arrays');
      (schema['x-kubernetes-list-map-keys'] ??= []).push(v as string);
      break;
    case 'mapType':
      requireType(schema, m, ['object'], 'objects');
      schema['x-kubernetes-map-type'] = oneOf(m, ['atomic', 'granular']) as 'atomic' | 'granular';
      break;
    case 'structType':
      requireType(schema, m, ['object'], 'objects');
      schema['x-kubernetes-map-type'] = oneOf(m, ['atomic', 'granular']) as 'atomic' | 'granular';
      break;
    default:
      return; // not a schema marker: read by the object or CRD builder
  }
  checkBounds(schema, m);
}

/** Markers given twice where once is the rule. */
export function checkRepeats(markers: readonly Marker[]): void {
  const seen = new Set<string>();
  for (const m of markers) {
    if (m.definition.repeatable) continue;
    if (seen.has(m.definition.name)) throw GenCrdError.at(m.loc, `+${m.definition.name} is given more than once`);
    seen.add(m.definition.name);
  }
}

/** Applies markers (a type's, then a field's) to `schema`; a field's marker overrides its type's. */
export function applySchemaMarkers(schema: JSONSchemaProps, markers: readonly Marker[]): void {
  checkRepeats(markers);
  for (const m of markers) applyOne(schema, m);
  const keys = schema['x-kubernetes-list-map-keys'];
  if (keys && schema['x-kubernetes-list-type'] !== 'map') {
    const m = markers.find((x) => x.definition.name === 'listMapKey');
    if (m) throw GenCrdError.at(m.loc, '+listMapKey needs +listType=map on the same list');
  }
}
