/**
 * CRD schema admission: the OpenAPI rules kube-apiserver v1.32 applies to every node of a CRD schema
 * (apiextensions validation ValidateCustomResourceDefinitionOpenAPISchema) and the root rules.
 */
import test from 'ava';
import { requirementsForUpdate, validateCrdSchema, type CrdSchemaOptions } from '../../../schemas/crd-schema-rules.js';

const P = 'spec.validation.openAPIV3Schema';

function lines(schema: unknown, opts: Partial<CrdSchemaOptions> = {}): string[] {
  return validateCrdSchema(schema, P, opts).map((c) => `${c.field}: ${c.message}`);
}

const root = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
/** `root({ spec: { type: 'object', properties } })` */
const spec = (properties: Record<string, unknown>) => root({ spec: { type: 'object', properties } });
const S = `${P}.properties[spec].properties`;

test('keywords apiextensions/v1 does not support', (t) => {
  t.deepEqual(lines(spec({ a: { type: 'string', id: 'a' } })), [`${S}[a].id: Forbidden: id is not supported`]);
  t.deepEqual(lines(spec({ a: { type: 'string', $ref: '#/definitions/b' } })), [`${S}[a].$ref: Forbidden: $ref is not supported`]);
  t.deepEqual(lines(spec({ a: { type: 'object', patternProperties: { '^x': { type: 'string' } } } })), [`${S}[a].patternProperties: Forbidden: patternProperties is not supported`]);
  t.deepEqual(lines(spec({ a: { type: 'object', definitions: { b: { type: 'string' } } } })), [`${S}[a].definitions: Forbidden: definitions is not supported`]);
  t.deepEqual(lines(spec({ a: { type: 'object', dependencies: { b: ['c'] } } })), [`${S}[a].dependencies: Forbidden: dependencies is not supported`]);
  t.deepEqual(lines(spec({ a: { type: 'array', items: { type: 'string' }, additionalItems: false } })), [`${S}[a].additionalItems: Forbidden: additionalItems is not supported`]);
  t.deepEqual(lines(spec({ a: { type: 'array', items: [{ type: 'string' }] } })), [`${S}[a].items: Forbidden: items must be a schema object and not an array`]);
});

test('uniqueItems: true', (t) => {
  t.deepEqual(validateCrdSchema(spec({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }), P), [
    { reason: 'FieldValueForbidden', field: `${S}[a].uniqueItems`, message: 'Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic' },
  ]);
  t.deepEqual(lines(spec({ a: { type: 'array', items: { type: 'string' }, uniqueItems: false } })), []);
});

test('a type that is not an OpenAPI v3 type, and null', (t) => {
  t.deepEqual(validateCrdSchema(spec({ a: { type: 'bogus' } }), P), [
    {
      reason: 'FieldValueNotSupported',
      field: `${S}[a].type`,
      message: 'Unsupported value: "bogus": supported values: "array", "boolean", "integer", "number", "object", "string"',
    },
  ]);
  t.deepEqual(lines(spec({ a: { type: 'null' } })), [
    `${S}[a].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    `${S}[a].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
  ]);
  // kube keeps accepting updates of CRDs that already had such a type
  t.deepEqual(lines(spec({ a: { type: 'bogus' } }), requirementsForUpdate([spec({ b: { type: 'bogus' } })])), []);
});

test('additionalProperties together with properties', (t) => {
  t.deepEqual(lines(spec({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } } })), [
    `${S}[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
  ]);
  t.deepEqual(lines(spec({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false } })), [
    `${S}[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
  ]);
  // additionalProperties: true adds nothing to properties
  t.deepEqual(lines(spec({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: true } })), []);
});

test('x-kubernetes-preserve-unknown-fields: false', (t) => {
  t.deepEqual(validateCrdSchema(spec({ a: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }), P), [
    { reason: 'FieldValueInvalid', field: `${S}[a].x-kubernetes-preserve-unknown-fields`, message: 'Invalid value: false: must be true or undefined' },
  ]);
});

test('x-kubernetes-map-type: objects only, atomic or granular', (t) => {
  t.deepEqual(lines(spec({ a: { type: 'string', 'x-kubernetes-map-type': 'atomic' } })), [`${S}[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`]);
  t.deepEqual(lines(spec({ a: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-map-type': 'atomic' } })), [
    `${S}[a].type: Required value: must be object if x-kubernetes-map-type is specified`,
  ]);
  t.deepEqual(lines(spec({ a: { type: 'object', 'x-kubernetes-map-type': 'merge' } })), [
    `${S}[a].x-kubernetes-map-type: Unsupported value: "merge": supported values: "atomic", "granular"`,
  ]);
});

test('x-kubernetes-list-type: arrays only, atomic, set or map', (t) => {
  t.deepEqual(lines(spec({ a: { type: 'object', 'x-kubernetes-list-type': 'atomic' } })), [`${S}[a].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`]);
  t.deepEqual(lines(spec({ a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } })), [
    `${S}[a].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
  ]);
});

test('x-kubernetes-list-type=set: atomic items that are not nullable', (t) => {
  const set = (items: Record<string, unknown>) => spec({ a: { type: 'array', 'x-kubernetes-list-type': 'set', items } });
  t.deepEqual(lines(set({ type: 'object', properties: { b: { type: 'string' } } })), [
    `${S}[a].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
  ]);
  t.deepEqual(lines(set({ type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { b: { type: 'string' } } })), []);
  t.deepEqual(lines(set({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' })), [
    `${S}[a].items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`,
  ]);
  t.deepEqual(lines(set({ type: 'string', nullable: true })), [`${S}[a].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`]);
});

test('x-kubernetes-list-type=map: keys are required (or defaulted) scalar properties of object items', (t) => {
  const map = (list: Record<string, unknown>) => spec({ a: { type: 'array', 'x-kubernetes-list-type': 'map', ...list } });
  const items = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' }, sub: { type: 'object' } } };
  t.deepEqual(lines(map({ 'x-kubernetes-list-map-keys': ['name'], items })), []);
  t.deepEqual(lines(map({ items })), [`${S}[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]);
  t.deepEqual(lines(map({ 'x-kubernetes-list-map-keys': ['name'], items: { type: 'string' } })), [
    `${S}[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
  ]);
  t.deepEqual(lines(map({ 'x-kubernetes-list-map-keys': ['name', 'missing'], items })), [
    `${S}[a].x-kubernetes-list-map-keys: Invalid value: []string{"name", "missing"}: entries must all be names of item properties`,
  ]);
  t.deepEqual(lines(map({ 'x-kubernetes-list-map-keys': ['name', 'name'], items })), [
    `${S}[a].x-kubernetes-list-map-keys: Invalid value: []string{"name", "name"}: must not contain duplicate entries`,
  ]);
  // kube prints the items' type as the bad value
  t.deepEqual(lines(map({ 'x-kubernetes-list-map-keys': ['name', 'sub'], items: { ...items, required: ['name', 'sub'] } })), [
    `${S}[a].items.properties[sub].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
  ]);
  t.deepEqual(lines(map({ 'x-kubernetes-list-map-keys': ['name', 'port'], items })), [
    `${S}[a].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
  ]);
  const defaulted = { ...items, properties: { ...items.properties, port: { type: 'integer', default: 80, nullable: true } } };
  t.deepEqual(lines(map({ 'x-kubernetes-list-map-keys': ['name', 'port'], items: defaulted })), [
    `${S}[a].items.properties[port].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
  ]);
  t.deepEqual(lines(spec({ a: { type: 'array', items, 'x-kubernetes-list-map-keys': ['name'] } })), [
    `${S}[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
  ]);
  t.deepEqual(lines(spec({ a: { type: 'array', items, 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-list-map-keys': ['name'] } })), [
    `${S}[a].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
  ]);
});

test('defaults are forbidden in the top-level apiVersion, kind and metadata', (t) => {
  t.deepEqual(lines(root({ metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } })), [
    `${P}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata`,
  ]);
  t.deepEqual(lines(root({ kind: { type: 'string', default: 'Widget' } })), [`${P}.properties[kind].default: Forbidden: must not be set in top-level kind`]);
});

test('in the metadata of an embedded resource: no defaults in maps, no embedded resources', (t) => {
  const embedded = (metadata: Record<string, unknown>) => spec({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata } } });
  t.deepEqual(lines(embedded({ type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } } })), [
    `${S}[e].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`,
  ]);
  t.deepEqual(lines(embedded({ type: 'object', properties: { inner: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } })), [
    `${S}[e].properties[metadata].properties[inner].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`,
  ]);
});

test('the root may not be nullable', (t) => {
  t.deepEqual(validateCrdSchema({ type: 'object', nullable: true }, P), [
    { reason: 'FieldValueForbidden', field: `${P}.nullable`, message: 'Forbidden: nullable cannot be true at the root' },
  ]);
});

test('with the status subresource, the root is an object with the keywords kept when status is extracted', (t) => {
  t.deepEqual(lines({ type: 'object', description: 'd', required: ['spec'], properties: { spec: { type: 'object' } } }, { statusEnabled: true }), []);
  t.deepEqual(lines({ type: 'array', items: { type: 'string' } }, { statusEnabled: true }), [
    `${P}.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
    `${P}.type: Invalid value: "array": must be object at the root`,
  ]);
  const [cause] = validateCrdSchema({ type: 'object', minProperties: 1 }, P, { statusEnabled: true });
  t.is(cause?.field, P);
  t.regex(
    cause?.message ?? '',
    /: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
  );
});
