/**
 * CRD schema admission: defaults (kube-apiserver v1.32 apiextensions schema/defaulting ValidateDefaults): once a
 * schema is structural, every default must be pruned and must validate against its own schema.
 */
import test from 'ava';
import { requirementsForUpdate, validateCrdSchema, type CrdSchemaOptions } from '../../../schemas/crd-schema-rules.js';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const S = `${P}.properties[spec].properties`;

function lines(schema: unknown, opts: Partial<CrdSchemaOptions> = {}): string[] {
  return validateCrdSchema(schema, P, opts).map((c) => `${c.field}: ${c.message}`);
}

const spec = (properties: Record<string, unknown>) => ({ type: 'object', properties: { spec: { type: 'object', properties } } });

test('valid defaults, at every depth', (t) => {
  const schema = spec({
    replicas: { type: 'integer', minimum: 0, default: 1 },
    mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
    port: { 'x-kubernetes-int-or-string': true, default: '50%' },
    conf: { type: 'object', default: {}, properties: { size: { type: 'integer', default: 3 } } },
    list: { type: 'array', default: [{ name: 'x' }], items: { type: 'object', properties: { name: { type: 'string', default: 'n' } } } },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { anything: { goes: 1 } } },
  });
  t.deepEqual(lines(schema), []);
});

test('a default of the wrong type', (t) => {
  t.deepEqual(validateCrdSchema(spec({ replicas: { type: 'integer', default: 'x' } }), P), [
    { reason: 'FieldValueTypeInvalid', field: `${S}[replicas].default`, message: 'Invalid value: "string":  in body must be of type integer: "string"' },
  ]);
});

test('a default that breaks the value validations of its schema', (t) => {
  t.deepEqual(lines(spec({ replicas: { type: 'integer', minimum: 0, default: -1 } })), [`${S}[replicas].default: Invalid value: -1:  in body should be greater than or equal to 0`]);
  t.deepEqual(lines(spec({ mode: { type: 'string', enum: ['a', 'b'], default: 'c' } })), [`${S}[mode].default: Unsupported value: "c": supported values: "a", "b"`]);
  t.deepEqual(lines(spec({ conf: { type: 'object', required: ['size'], properties: { size: { type: 'integer' } }, default: { size: 'big' } } })), [
    `${S}[conf].default.size: Invalid value: "string": size in body must be of type integer: "string"`,
  ]);
  t.deepEqual(lines(spec({ conf: { type: 'object', required: ['size'], properties: { size: { type: 'integer' } }, default: {} } })), [`${S}[conf].default.size: Required value`]);
});

test('a default with fields its schema prunes', (t) => {
  t.deepEqual(validateCrdSchema(spec({ conf: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 1 } } }), P), [
    { reason: 'FieldValueInvalid', field: `${S}[conf].default`, message: 'Invalid value: map[string]interface {}{"a":"x", "b":1}: must not have unknown fields' },
  ]);
  // not for CRDs that already had unpruned defaults (update)
  const old = spec({ c: { type: 'object', properties: {}, default: { z: 1 } } });
  t.deepEqual(lines(spec({ conf: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 1 } } }), requirementsForUpdate([old])), []);
});

test('an embedded resource keeps apiVersion, kind and metadata in its default', (t) => {
  const template = { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } };
  t.deepEqual(lines(spec({ template: { ...template, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } } })), []);
  t.deepEqual(lines(spec({ template: { ...template, default: { kind: 'Pod', status: {} } } })), [
    `${S}[template].default: Invalid value: map[string]interface {}{"kind":"Pod", "status":map[string]interface {}{}}: must not have unknown fields`,
    `${S}[template].default.apiVersion: Required value`,
  ]);
});

test('the apiVersion and kind of an embedded resource in a default', (t) => {
  const template = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
  t.deepEqual(lines(spec({ template: { ...template, default: { apiVersion: 'a/b/c', kind: 'My_Kind' } } })), [
    `${S}[template].default.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
    `${S}[template].default.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  t.deepEqual(lines(spec({ list: { type: 'array', items: template, default: [{ apiVersion: 'v1', kind: '' }] } })), [
    `${S}[list].default[0].kind: Invalid value: "": must not be empty`,
  ]);
});

test('defaults are only checked once the schema is structural', (t) => {
  t.deepEqual(lines(spec({ replicas: { type: 'integer', default: 'x' }, other: {} })), [
    `${S}[other].type: Required value: must not be empty for specified object fields`,
  ]);
});

test('defaults under additionalProperties are not checked', (t) => {
  t.deepEqual(lines(spec({ map: { type: 'object', additionalProperties: { type: 'integer', default: 'x' } } })), []);
});

test('defaults in value validations are structural violations', (t) => {
  t.deepEqual(lines(spec({ a: { type: 'string', anyOf: [{ default: 'x' }] } })), [`${S}[a].anyOf[0].default: Forbidden: must be undefined to be structural`]);
});
