/** CRD schema admission: the structural-schema rules (kube-apiserver v1.32 apiextensions schema.ValidateStructural). */
import test from 'ava';
import { validateCrdSchema } from '../../../schemas/crd-schema-rules.js';

const P = 'spec.validation.openAPIV3Schema';

/** The violations as kube prints them in a Status message (`<field>: <message>`). */
function lines(schema: unknown): string[] {
  return validateCrdSchema(schema, P).map((c) => `${c.field}: ${c.message}`);
}

/** A root object schema with these properties. */
const root = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

test('a typical structural schema has no violations', (t) => {
  const quantity = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: '^(\\+|-)?[0-9]+(\\.[0-9]*)?([KMGTPE]i)?$' };
  const schema = root({
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 63 } } },
    spec: {
      type: 'object',
      description: 'the spec',
      required: ['image'],
      properties: {
        image: { type: 'string' },
        limits: { type: 'object', additionalProperties: quantity },
        raw: { 'x-kubernetes-preserve-unknown-fields': true },
        port: { 'x-kubernetes-int-or-string': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
      oneOf: [{ required: ['image'] }],
    },
  });
  t.deepEqual(lines(schema), []);
});

test('a field without a type', (t) => {
  t.deepEqual(lines(root({ spec: { properties: {} } })), [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`]);
});

test('array items without a type', (t) => {
  t.deepEqual(lines(root({ list: { type: 'array', items: {} } })), [`${P}.properties[list].items.type: Required value: must not be empty for specified array items`]);
});

test('a root without a type', (t) => {
  const causes = validateCrdSchema({ properties: { spec: { type: 'object' } } }, P);
  t.deepEqual(causes, [{ reason: 'FieldValueRequired', field: `${P}.type`, message: 'Required value: must not be empty at the root' }]);
});

test('a root that is not an object', (t) => {
  t.deepEqual(lines({ type: 'string' }), [`${P}.type: Invalid value: "string": must be object at the root`]);
});

test('an array without items', (t) => {
  t.deepEqual(lines(root({ list: { type: 'array' } })), [`${P}.properties[list].items: Required value: must be specified`]);
});

test('additionalProperties at the root', (t) => {
  t.deepEqual(lines({ type: 'object', additionalProperties: { type: 'string' } }), [`${P}.additionalProperties: Forbidden: must not be used at the root`]);
});

test('x-kubernetes-int-or-string with x-kubernetes-preserve-unknown-fields or x-kubernetes-embedded-resource', (t) => {
  t.deepEqual(lines(root({ a: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } })), [
    `${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
  ]);
  t.deepEqual(lines(root({ a: { type: 'object', 'x-kubernetes-int-or-string': true, 'x-kubernetes-embedded-resource': true, properties: { b: { type: 'string' } } } })), [
    `${P}.properties[a].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
  ]);
});

test('the int-or-string patterns may give types under anyOf (directly, or as the first allOf)', (t) => {
  const anyOf = [{ type: 'integer' }, { type: 'string' }];
  t.deepEqual(lines(root({ a: { 'x-kubernetes-int-or-string': true, anyOf } })), []);
  t.deepEqual(lines(root({ a: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf }, { pattern: '^[0-9]+%?$' }] } })), []);
  // any other shape is a value validation that names a type
  t.deepEqual(lines(root({ a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] } })), [
    `${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${P}.properties[a].anyOf[1].type: Forbidden: must be empty to be structural`,
  ]);
});

test('allOf, anyOf, oneOf and not may only validate values', (t) => {
  const nested = {
    type: 'string',
    additionalProperties: { type: 'string' },
    default: 'x',
    title: 't',
    description: 'd',
    nullable: true,
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-embedded-resource': true,
    'x-kubernetes-int-or-string': true,
    'x-kubernetes-list-map-keys': ['k'],
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-map-type': 'atomic',
    'x-kubernetes-validations': [{ rule: 'true' }],
  };
  // (the OpenAPI rules of the same keywords report more, e.g. x-kubernetes-list-type on a string)
  const got = lines(root({ a: { type: 'string', allOf: [nested] } })).filter((l) => l.endsWith('to be structural'));
  t.deepEqual(got, [
    `${P}.properties[a].allOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
    `${P}.properties[a].allOf[0].default: Forbidden: must be undefined to be structural`,
    `${P}.properties[a].allOf[0].description: Forbidden: must be empty to be structural`,
    `${P}.properties[a].allOf[0].nullable: Forbidden: must be false to be structural`,
    `${P}.properties[a].allOf[0].title: Forbidden: must be empty to be structural`,
    `${P}.properties[a].allOf[0].type: Forbidden: must be empty to be structural`,
    `${P}.properties[a].allOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
    `${P}.properties[a].allOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
    `${P}.properties[a].allOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural`,
    `${P}.properties[a].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
    `${P}.properties[a].allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
    `${P}.properties[a].allOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
    `${P}.properties[a].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
  ]);
  t.deepEqual(lines(root({ a: { type: 'string', not: { type: 'string' }, oneOf: [{ items: { type: 'string' } }] } })), [
    `${P}.properties[a].not.type: Forbidden: must be empty to be structural`,
    `${P}.properties[a].oneOf[0].items.type: Forbidden: must be empty to be structural`,
  ]);
});

test('metadata in a value validation', (t) => {
  t.deepEqual(lines(root({ spec: { type: 'object', anyOf: [{ properties: { metadata: {} } }] } })), [
    `${P}.properties[spec].anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
  ]);
});

test('fields and items named under the root value validations must be specified structurally', (t) => {
  const schema = root({ spec: { type: 'object', properties: { a: { type: 'string' } } } }, {
    anyOf: [{ properties: { spec: { properties: { a: {}, b: {} } } } }, { properties: { list: { items: {} } } }],
  });
  t.deepEqual(lines(schema), [
    `${P}.properties[list]: Required value: because it is defined in ${P}.anyOf[1].properties[list]`,
    `${P}.properties[spec].properties[b]: Required value: because it is defined in ${P}.anyOf[0].properties[spec].properties[b]`,
  ]);
  t.deepEqual(lines(root({ list: { type: 'array', items: { type: 'object' } } }, { not: { properties: { list: { items: { items: {} } } } } })), [
    `${P}.properties[list].items.items: Required value: because it is defined in ${P}.not.properties[list].items.items`,
  ]);
});

test('metadata at the root may only restrict name and generateName', (t) => {
  const ok = root({ metadata: { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z]+$' }, generateName: { type: 'string' } } } });
  t.deepEqual(lines(ok), []);
  t.deepEqual(lines(root({ metadata: { type: 'object', properties: { labels: { type: 'object' } } } })), [
    `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  ]);
  t.deepEqual(lines(root({ metadata: { type: 'object', required: ['name'] } })), [
    `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  ]);
});

test('apiVersion, kind and metadata of a resource have fixed types', (t) => {
  t.deepEqual(lines(root({ apiVersion: { type: 'integer' }, kind: { type: 'object' }, metadata: { type: 'string' } })), [
    `${P}.properties[apiVersion].type: Invalid value: "integer": must be string`,
    `${P}.properties[kind].type: Invalid value: "object": must be string`,
    `${P}.properties[metadata].type: Invalid value: "string": must be object`,
  ]);
  // not below the root (except in embedded resources)
  t.deepEqual(lines(root({ spec: { type: 'object', properties: { kind: { type: 'integer' }, metadata: { type: 'string' } } } })), []);
});

test('x-kubernetes-embedded-resource: an object with properties or x-kubernetes-preserve-unknown-fields, no additionalProperties', (t) => {
  t.deepEqual(lines(root({ e: { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } })), [
    `${P}.properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
  ]);
  t.deepEqual(lines(root({ e: { type: 'string', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } })), [
    `${P}.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
  ]);
  t.deepEqual(lines(root({ e: { type: 'object', 'x-kubernetes-embedded-resource': true } })), [
    `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
  ]);
  t.deepEqual(lines(root({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, additionalProperties: true } })), [
    `${P}.properties[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
  ]);
  t.deepEqual(lines(root({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' }, metadata: { type: 'object', properties: { labels: { type: 'object' } } } } } })), [
    `${P}.properties[e].properties[kind].type: Invalid value: "integer": must be string`,
  ]);
});

test('a pattern Go cannot compile', (t) => {
  t.deepEqual(validateCrdSchema(root({ name: { type: 'string', pattern: '^(a' } }), P), [
    {
      reason: 'FieldValueInvalid',
      field: `${P}.properties[name].pattern`,
      message: 'Invalid value: "^(a": must be a valid regular expression, but isn\'t: error parsing regexp: missing closing ): `^(a`',
    },
  ]);
  // also inside value validations
  t.deepEqual(lines(root({ name: { type: 'string', allOf: [{ pattern: '(?=x)' }] } })), [
    `${P}.properties[name].allOf[0].pattern: Invalid value: "(?=x)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
  ]);
});

test('structural violations are sorted by their text', (t) => {
  t.deepEqual(lines({ properties: { b: {}, a: { type: 'array' } } }), [
    `${P}.properties[a].items: Required value: must be specified`,
    `${P}.properties[b].type: Required value: must not be empty for specified object fields`,
    `${P}.type: Required value: must not be empty at the root`,
  ]);
});

test('a schema kube cannot convert to its structural form is not checked for structure', (t) => {
  // the missing types are not reported: $ref stops the structural checks
  t.deepEqual(lines({ properties: { a: { $ref: '#/definitions/a' } } }), [`${P}.properties[a].$ref: Forbidden: $ref is not supported`]);
});

test('$schema: the conversion error is reported when nothing else is wrong', (t) => {
  t.deepEqual(validateCrdSchema({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' }, P), [
    { reason: 'FieldValueInvalid', field: P, message: `Invalid value: "": OpenAPIV3Schema 'schema' is not supported` },
  ]);
});
