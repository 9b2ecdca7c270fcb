import test from 'ava';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';
import { compileSchema, type SchemaCause } from '../../../schemas/structural-schema.js';

/** A resource schema with `spec` described by `spec`. */
function resource(spec: JSONSchemaProps, extra: Record<string, JSONSchemaProps> = {}): JSONSchemaProps {
  return { type: 'object', properties: { metadata: { type: 'object' }, spec, ...extra } };
}

function validate(spec: JSONSchemaProps, value: unknown): SchemaCause[] {
  return compileSchema(resource(spec)).validate({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: value });
}

/** The causes as kube prints them in a Status message. */
const lines = (causes: SchemaCause[]): string[] => causes.map((c) => `${c.field}: ${c.message}`);

const field = (name: string, schema: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { [name]: schema } });

test('a valid object has no causes', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    required: ['color'],
    properties: { color: { type: 'string', enum: ['red', 'blue'] }, replicas: { type: 'integer', minimum: 0 } },
  };
  t.deepEqual(validate(spec, { color: 'red', replicas: 3 }), []);
});

test('type: the offending type is the bad value, reason FieldValueTypeInvalid', (t) => {
  t.deepEqual(validate(field('replicas', { type: 'integer' }), { replicas: 'many' }), [
    { reason: 'FieldValueTypeInvalid', field: 'spec.replicas', message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"' },
  ]);
  const s = field('x', { type: 'string' });
  t.deepEqual(lines(validate(s, { x: 5 })), ['spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer"']);
  t.deepEqual(lines(validate(s, { x: 1.5 })), ['spec.x: Invalid value: "number": spec.x in body must be of type string: "number"']);
  t.deepEqual(lines(validate(s, { x: true })), ['spec.x: Invalid value: "boolean": spec.x in body must be of type string: "boolean"']);
  t.deepEqual(lines(validate(s, { x: { a: 1 } })), ['spec.x: Invalid value: "object": spec.x in body must be of type string: "object"']);
  t.deepEqual(lines(validate(s, { x: [1] })), ['spec.x: Invalid value: "array": spec.x in body must be of type string: "array"']);
  t.deepEqual(lines(validate(field('n', { type: 'integer' }), { n: 1.5 })), ['spec.n: Invalid value: "number": spec.n in body must be of type integer: "number"']);
  t.deepEqual(validate(field('n', { type: 'number' }), { n: 2 }), [], 'an integer is a number');
  t.deepEqual(lines(validate({ type: 'object' }, 'text')), ['spec: Invalid value: "string": spec in body must be of type object: "string"']);
});

test('type: null is refused unless nullable', (t) => {
  t.deepEqual(lines(validate(field('x', { type: 'string' }), { x: null })), ['spec.x: Invalid value: "null": spec.x in body must be of type string: "null"']);
  t.deepEqual(validate(field('x', { type: 'string', nullable: true }), { x: null }), []);
  t.deepEqual(validate(field('x', { type: 'string', nullable: true, minLength: 3, pattern: '^a' }), { x: null }), [], 'only type and enum apply to null');
  t.deepEqual(lines(validate(field('l', { type: 'array', items: { type: 'integer' } }), { l: [1, null] })), [
    'spec.l[1]: Invalid value: "null": spec.l[1] in body must be of type integer: "null"',
  ]);
});

test('x-kubernetes-int-or-string accepts integers and strings', (t) => {
  const s = field('port', { 'x-kubernetes-int-or-string': true });
  t.deepEqual(validate(s, { port: 80 }), []);
  t.deepEqual(validate(s, { port: 'http' }), []);
  t.deepEqual(lines(validate(s, { port: true })), ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']);
  t.deepEqual(lines(validate(s, { port: 1.5 })), ['spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"']);
});

test('required', (t) => {
  const s: JSONSchemaProps = { type: 'object', required: ['color', 'size'], properties: { color: { type: 'string' }, size: { type: 'integer' } } };
  t.deepEqual(validate(s, { size: 1 }), [{ reason: 'FieldValueRequired', field: 'spec.color', message: 'Required value' }]);
  t.deepEqual(lines(validate(s, {})), ['spec.color: Required value', 'spec.size: Required value']);
  t.deepEqual(validate(s, { color: null, size: 1 }).map((c) => c.field), ['spec.color'], 'present but null is a type error, not missing');
  const root = compileSchema({ type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } });
  t.deepEqual(lines(root.validate({ apiVersion: 'v1', kind: 'W', metadata: {} })), ['spec: Required value']);
});

test('enum: Unsupported value with the supported values quoted', (t) => {
  t.deepEqual(validate(field('color', { type: 'string', enum: ['a', 'b'] }), { color: 'x' }), [
    { reason: 'FieldValueNotSupported', field: 'spec.color', message: 'Unsupported value: "x": supported values: "a", "b"' },
  ]);
  t.deepEqual(lines(validate(field('n', { type: 'integer', enum: [1, 2] }), { n: 3 })), ['spec.n: Unsupported value: 3: supported values: "1", "2"']);
  t.deepEqual(lines(validate(field('o', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, enum: [{ a: 1 }] }), { o: { a: 2, b: 'x' } })), [
    'spec.o: Unsupported value: map[string]interface {}{"a":2, "b":"x"}: supported values: "{\\"a\\":1}"',
  ]);
  t.deepEqual(validate(field('o', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, enum: [{ a: 1 }] }), { o: { a: 1 } }), []);
  t.deepEqual(lines(validate(field('c', { type: 'string', nullable: true, enum: ['a'] }), { c: null })), ['spec.c: Unsupported value: "null": supported values: "a"'], 'kube-openapi never matches null against an enum');
  t.deepEqual(validate(field('n', { type: 'number', enum: [1, 2] }), { n: 1.5 }), [], 'kube-openapi converts 1.5 to the enum value type int64 (1)');
});

test('minimum and maximum, inclusive and exclusive', (t) => {
  t.deepEqual(validate(field('replicas', { type: 'integer', minimum: 0 }), { replicas: -1 }), [
    { reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: -1: spec.replicas in body should be greater than or equal to 0' },
  ]);
  t.deepEqual(lines(validate(field('n', { type: 'integer', minimum: 0, exclusiveMinimum: true }), { n: 0 })), ['spec.n: Invalid value: 0: spec.n in body should be greater than 0']);
  t.deepEqual(lines(validate(field('n', { type: 'integer', maximum: 10 }), { n: 11 })), ['spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10']);
  t.deepEqual(lines(validate(field('n', { type: 'integer', maximum: 10, exclusiveMaximum: true }), { n: 10 })), ['spec.n: Invalid value: 10: spec.n in body should be less than 10']);
  t.deepEqual(validate(field('n', { type: 'integer', maximum: 10, exclusiveMaximum: true }), { n: 9 }), []);
  t.deepEqual(lines(validate(field('r', { type: 'number', maximum: 1 }), { r: 1.5 })), ['spec.r: Invalid value: 1.5: spec.r in body should be less than or equal to 1']);
  t.deepEqual(lines(validate(field('r', { type: 'number', maximum: 1000000 }), { r: 2000000.5 })), [
    'spec.r: Invalid value: 2.0000005e+06: spec.r in body should be less than or equal to 1e+06',
  ]);
  t.deepEqual(lines(validate(field('r', { type: 'number', minimum: 0.5 }), { r: 0.25 })), ['spec.r: Invalid value: 0.25: spec.r in body should be greater than or equal to 0.5']);
  // integers are compared with the bound truncated to an integer, as kube-openapi does (int64(0.5) == 0)
  t.deepEqual(validate(field('r', { type: 'number', minimum: 0.5 }), { r: 0 }), []);
  t.deepEqual(lines(validate(field('r', { type: 'number', minimum: 1.5 }), { r: 0 })), ['spec.r: Invalid value: 0: spec.r in body should be greater than or equal to 1']);
});

test('multipleOf', (t) => {
  t.deepEqual(lines(validate(field('n', { type: 'integer', multipleOf: 5 }), { n: 7 })), ['spec.n: Invalid value: 7: spec.n in body should be a multiple of 5']);
  t.deepEqual(validate(field('n', { type: 'integer', multipleOf: 5 }), { n: -10 }), []);
  t.deepEqual(lines(validate(field('r', { type: 'number', multipleOf: 0.5 }), { r: 0.3 })), ['spec.r: Invalid value: 0.3: spec.r in body should be a multiple of 0.5']);
  t.deepEqual(validate(field('r', { type: 'number', multipleOf: 0.1 }), { r: 0.3 }), [], 'within kube-openapi\'s 1e-9 tolerance');
});

test('string length and pattern; only the first failure is reported', (t) => {
  t.deepEqual(validate(field('name', { type: 'string', minLength: 1 }), { name: '' }), [
    { reason: 'FieldValueInvalid', field: 'spec.name', message: 'Invalid value: "": spec.name in body should be at least 1 chars long' },
  ]);
  t.deepEqual(validate(field('name', { type: 'string', maxLength: 3 }), { name: 'abcd' }), [
    { reason: 'FieldValueTooLong', field: 'spec.name', message: 'Too long: may not be more than 3 bytes' },
  ]);
  t.deepEqual(validate(field('name', { type: 'string', maxLength: 5 }), { name: 'héllo' }), [], 'lengths count characters');
  t.deepEqual(lines(validate(field('name', { type: 'string', pattern: '^[a-z]+$' }), { name: 'abc1' })), [
    "spec.name: Invalid value: \"abc1\": spec.name in body should match '^[a-z]+$'",
  ]);
  t.deepEqual(lines(validate(field('name', { type: 'string', maxLength: 3, pattern: '^[a-z]+$' }), { name: 'ABCDE' })), ['spec.name: Too long: may not be more than 3 bytes']);
  t.deepEqual(lines(validate(field('q', { type: 'string', pattern: '^a' }), { q: 'tab\there "q"' })), [
    "spec.q: Invalid value: \"tab\\there \\\"q\\\"\": spec.q in body should match '^a'",
  ]);
});

test('Go regular expressions are honoured', (t) => {
  t.deepEqual(validate(field('s', { type: 'string', pattern: '(?i)^abc$' }), { s: 'ABC' }), []);
  t.deepEqual(validate(field('s', { type: 'string', pattern: '^[[:alpha:]]+\\z' }), { s: 'abc' }), []);
  t.is(validate(field('s', { type: 'string', pattern: '^[[:alpha:]]+\\z' }), { s: 'abc1' }).length, 1);
  t.deepEqual(validate(field('s', { type: 'string', pattern: '^\\p{Greek}+$' }), { s: 'αβγ' }), []);
  t.deepEqual(validate(field('s', { type: 'string', pattern: '^a\\_b$' }), { s: 'a_b' }), [], 'Go lets any punctuation be escaped');
});

test('array items, size and uniqueness', (t) => {
  const list = (s: JSONSchemaProps): JSONSchemaProps => field('list', { type: 'array', items: { type: 'string' }, ...s });
  t.deepEqual(lines(validate(list({ minItems: 2 }), { list: ['a'] })), ['spec.list: Invalid value: 1: spec.list in body should have at least 2 items']);
  t.deepEqual(validate(list({ maxItems: 3 }), { list: ['a', 'b', 'c', 'd'] }), [
    { reason: 'FieldValueTooMany', field: 'spec.list', message: 'Too many: 4: must have at most 3 items' },
  ]);
  t.deepEqual(lines(validate(list({ uniqueItems: true }), { list: ['a', 'a'] })), ['spec.list: Invalid value: "": spec.list in body shouldn\'t contain duplicates']);
  t.deepEqual(lines(validate(list({ maxItems: 1 }), { list: [1, 'b'] })), [
    'spec.list[0]: Invalid value: "integer": spec.list[0] in body must be of type string: "integer"',
    'spec.list: Too many: 2: must have at most 1 items',
  ], 'items first, then the array\'s own rules');
});

test('objects: properties count, maps and additionalProperties: false', (t) => {
  const labels = (s: JSONSchemaProps): JSONSchemaProps => field('labels', { type: 'object', additionalProperties: { type: 'string' }, ...s });
  t.deepEqual(lines(validate(labels({ minProperties: 1 }), { labels: {} })), ['spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties']);
  t.deepEqual(validate(labels({ maxProperties: 2 }), { labels: { a: 1, b: 2, c: 3 } }), [
    { reason: 'FieldValueTooMany', field: 'spec.labels', message: 'Too many: 3: must have at most 2 items' },
  ], 'an object of the wrong size is not validated further');
  t.deepEqual(lines(validate(labels({}), { labels: { a: 'x', b: 1 } })), ['spec.labels.b: Invalid value: "integer": spec.labels.b in body must be of type string: "integer"']);
  const closed: JSONSchemaProps = { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } };
  t.deepEqual(validate(closed, { a: 'x', bogus: 1 }), [
    { reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: "bogus": spec.bogus in body is a forbidden property' },
  ]);
});

test('allOf, anyOf, oneOf and not', (t) => {
  const choice: JSONSchemaProps = {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'string' } },
    oneOf: [{ required: ['a'] }, { required: ['b'] }],
  };
  t.deepEqual(validate(field('choice', choice), { choice: {} }), [
    { reason: 'FieldValueInvalid', field: '<nil>', message: 'Invalid value: "": "spec.choice" must validate one and only one schema (oneOf). Found none valid' },
    { reason: 'FieldValueRequired', field: 'spec.choice.a', message: 'Required value' },
  ]);
  t.deepEqual(lines(validate(field('choice', choice), { choice: { a: 'x', b: 'y' } })), [
    '<nil>: Invalid value: "": "spec.choice" must validate one and only one schema (oneOf). Found 2 valid alternatives',
  ]);
  t.deepEqual(validate(field('choice', choice), { choice: { b: 'y' } }), []);

  const any: JSONSchemaProps = { anyOf: [{ type: 'integer', minimum: 10 }, { type: 'string' }] };
  t.deepEqual(lines(validate(field('v', any), { v: 3 })), [
    '<nil>: Invalid value: "": "spec.v" must validate at least one schema (anyOf)',
    'spec.v: Invalid value: 3: spec.v in body should be greater than or equal to 10',
  ]);
  t.deepEqual(validate(field('v', any), { v: 'x' }), []);

  const all: JSONSchemaProps = { type: 'string', allOf: [{ minLength: 2 }, { pattern: '^a' }] };
  t.deepEqual(lines(validate(field('v', all), { v: 'b' })), [
    'spec.v: Invalid value: "b": spec.v in body should be at least 2 chars long',
    "spec.v: Invalid value: \"b\": spec.v in body should match '^a'",
    '<nil>: Invalid value: "": "spec.v" must validate all the schemas (allOf). None validated',
  ]);
  t.deepEqual(lines(validate(field('v', all), { v: 'bb' })), [
    "spec.v: Invalid value: \"bb\": spec.v in body should match '^a'",
    '<nil>: Invalid value: "": "spec.v" must validate all the schemas (allOf)',
  ]);

  t.deepEqual(lines(validate(field('v', { type: 'string', not: { enum: ['forbidden'] } }), { v: 'forbidden' })), [
    '<nil>: Invalid value: "": "spec.v" must not validate the schema (not)',
  ]);
  t.deepEqual(validate(field('v', { type: 'string', nullable: true, anyOf: [{ minLength: 3 }] }), { v: null }), [], 'composites are skipped for null');
});

test('identical messages are reported once', (t) => {
  const s: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ required: ['a'] }, { required: ['a'] }], required: ['a'] };
  t.deepEqual(lines(validate(s, {})), [
    'spec.a: Required value',
    '<nil>: Invalid value: "": "spec" must validate all the schemas (allOf). None validated',
  ]);
});

test('formats: kube\'s text; unsupported formats are ignored', (t) => {
  const when = field('when', { type: 'string', format: 'date-time' });
  t.deepEqual(validate(when, { when: 'yesterday' }), [
    { reason: 'FieldValueTypeInvalid', field: 'spec.when', message: 'Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"' },
  ]);
  t.deepEqual(validate(when, { when: '2024-05-01T10:00:00Z' }), []);
  t.deepEqual(lines(validate(when, { when: 5 })), ['spec.when: Invalid value: "int64": spec.when in body must be of type date-time: "int64"']);
  t.deepEqual(lines(validate(field('id', { type: 'string', format: 'uuid' }), { id: 'x' })), ['spec.id: Invalid value: "x": spec.id in body must be of type uuid: "x"']);
  t.deepEqual(validate(field('x', { type: 'string', format: 'k8s-fancy' }), { x: 'anything' }), []);
  t.deepEqual(validate(field('n', { type: 'integer', format: 'int32' }), { n: 2 ** 40 }), [], 'int32 is not enforced by kube-apiserver');
});

test('causes come in kube-openapi\'s order: type, composites, string, format, number, array, enum, object', (t) => {
  const s: JSONSchemaProps = {
    type: 'object',
    required: ['z'],
    properties: {
      b: { type: 'integer', minimum: 0, maximum: 10, multipleOf: 3 },
      a: { type: 'array', maxItems: 1, items: { type: 'string', enum: ['x'] } },
      z: { type: 'string' },
    },
  };
  t.deepEqual(lines(validate(s, { b: 20, a: ['y', 'x'] })), [
    'spec.a[0]: Unsupported value: "y": supported values: "x"',
    'spec.a: Too many: 2: must have at most 1 items',
    'spec.b: Invalid value: 20: spec.b in body should be a multiple of 3',
    'spec.b: Invalid value: 20: spec.b in body should be less than or equal to 10',
    'spec.z: Required value',
  ]);
});

test('root metadata: only name and generateName constraints of the schema apply', (t) => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 }, labels: { type: 'integer' } } },
      spec: { type: 'object' },
    },
  };
  const c = compileSchema(schema);
  t.deepEqual(c.validate({ metadata: { name: 'short', labels: { a: 'b' } }, spec: {} }), []);
  t.deepEqual(lines(c.validate({ metadata: { name: 'toolong' }, spec: {} })), ['metadata.name: Too long: may not be more than 5 bytes']);
});

test('embedded resources are validated by their schema', (t) => {
  const embedded: JSONSchemaProps = {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
  };
  t.deepEqual(lines(validate(field('template', embedded), { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { size: 'big' } } })), [
    'spec.template.spec.size: Invalid value: "string": spec.template.spec.size in body must be of type integer: "string"',
  ]);
});

test('status subresource: only status, against the status schema, fields under status', (t) => {
  const schema = resource(field('replicas', { type: 'integer', minimum: 0 }), {
    status: { type: 'object', properties: { phase: { type: 'string', enum: ['Ready'] } } },
  });
  const c = compileSchema(schema);
  const obj = { metadata: { name: 'w' }, spec: { replicas: -1 }, status: { phase: 'Broken' } };
  t.deepEqual(lines(c.validateStatus(obj)), ['status.phase: Unsupported value: "Broken": supported values: "Ready"']);
  t.is(c.validate(obj).length, 2);
  t.deepEqual(c.validateStatus({ metadata: { name: 'w' }, spec: { replicas: -1 } }), []);
  t.deepEqual(lines(c.validateStatus({ status: 'x' })), ['status: Invalid value: "string":  in body must be of type object: "string"']);
});

test('the compiled schema is cached per schema object', (t) => {
  const schema = resource({ type: 'object' });
  t.is(compileSchema(schema), compileSchema(schema));
  t.not(compileSchema(schema), compileSchema(resource({ type: 'object' })));
});
