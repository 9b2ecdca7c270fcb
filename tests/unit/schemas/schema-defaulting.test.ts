import test from 'ava';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';
import { compileSchema } from '../../../schemas/structural-schema.js';

function defaulted(spec: JSONSchemaProps, value: unknown): unknown {
  const obj: Record<string, unknown> = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
  if (value !== undefined) obj.spec = value;
  compileSchema({ type: 'object', properties: { metadata: { type: 'object' }, spec } }).applyDefaults(obj);
  return obj.spec;
}

test('defaults fill absent fields and leave present ones', (t) => {
  const spec: JSONSchemaProps = { type: 'object', properties: { replicas: { type: 'integer', default: 1 }, color: { type: 'string', default: 'blue' } } };
  t.deepEqual(defaulted(spec, {}), { replicas: 1, color: 'blue' });
  t.deepEqual(defaulted(spec, { replicas: 0, color: '' }), { replicas: 0, color: '' }, 'zero values are values');
});

test('a defaulted object is defaulted further; absent parents without default stay absent', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      strategy: { type: 'object', default: {}, properties: { type: { type: 'string', default: 'Rolling' }, maxSurge: { type: 'integer', default: 1 } } },
      other: { type: 'object', properties: { x: { type: 'string', default: 'x' } } },
    },
  };
  t.deepEqual(defaulted(spec, {}), { strategy: { type: 'Rolling', maxSurge: 1 } });
  t.deepEqual(defaulted(spec, { strategy: { type: 'Recreate' }, other: {} }), { strategy: { type: 'Recreate', maxSurge: 1 }, other: { x: 'x' } });
  const top: JSONSchemaProps = { type: 'object', default: { a: 1 }, properties: { a: { type: 'integer' } } };
  t.deepEqual(defaulted(top, undefined), { a: 1 }, 'the spec itself can be defaulted');
});

test('defaults in array items and map values', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      ports: { type: 'array', items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } } },
      limits: { type: 'object', additionalProperties: { type: 'object', properties: { unit: { type: 'string', default: 'Mi' } } } },
      names: { type: 'array', items: { type: 'string', default: 'unnamed' } },
    },
  };
  t.deepEqual(defaulted(spec, { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }], limits: { memory: {}, cpu: { unit: 'm' } }, names: ['a', null] }), {
    ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }],
    limits: { memory: { unit: 'Mi' }, cpu: { unit: 'm' } },
    names: ['a', 'unnamed'],
  });
});

test('null: replaced by the default unless nullable', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: { a: { type: 'string', default: 'x' }, b: { type: 'string', nullable: true, default: 'y' }, c: { type: 'string' } },
  };
  t.deepEqual(defaulted(spec, { a: null, b: null, c: null }), { a: 'x', b: null, c: null });
});

test('defaults are copied, never shared between objects', (t) => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, default: ['a'] } } } },
  };
  const c = compileSchema(schema);
  const one: Record<string, unknown> = { spec: {} };
  const two: Record<string, unknown> = { spec: {} };
  c.applyDefaults(one);
  c.applyDefaults(two);
  ((one.spec as Record<string, string[]>).tags).push('b');
  t.deepEqual(two.spec, { tags: ['a'] });
  t.deepEqual(schema.properties!.spec.properties!.tags.default, ['a']);
});

test('defaults inside allOf/anyOf are not structural and do not apply', (t) => {
  const spec: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ properties: { a: { default: 'x' } } }] };
  t.deepEqual(defaulted(spec, {}), {});
});
