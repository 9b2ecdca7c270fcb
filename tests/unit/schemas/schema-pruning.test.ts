import test from 'ava';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';
import { compileSchema } from '../../../schemas/structural-schema.js';

function resource(spec: JSONSchemaProps): JSONSchemaProps {
  return { type: 'object', properties: { metadata: { type: 'object' }, spec } };
}

function prune(spec: JSONSchemaProps, value: unknown): { paths: string[]; spec: unknown; obj: Record<string, unknown> } {
  const obj: Record<string, unknown> = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', unknownMeta: 1 }, spec: value };
  const paths = compileSchema(resource(spec)).prune(obj);
  return { paths, spec: obj.spec, obj };
}

test('unknown fields are removed at every depth, their paths sorted', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: { color: { type: 'string' }, nested: { type: 'object', properties: { keep: { type: 'integer' } } } },
  };
  const r = prune(spec, { color: 'red', zeta: 1, bogus: true, nested: { keep: 1, drop: { deep: 1 } } });
  t.deepEqual(r.paths, ['spec.bogus', 'spec.nested.drop', 'spec.zeta']);
  t.deepEqual(r.spec, { color: 'red', nested: { keep: 1 } });
});

test('apiVersion, kind and metadata of the resource are never pruned; other root fields are', (t) => {
  const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'W', metadata: { name: 'w', extra: 1 }, spec: {}, other: 1 };
  const paths = compileSchema(resource({ type: 'object' })).prune(obj);
  t.deepEqual(paths, ['other']);
  t.deepEqual(obj, { apiVersion: 'v1', kind: 'W', metadata: { name: 'w', extra: 1 }, spec: {} });
});

test('items of arrays are pruned by the items schema', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: { list: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } }, matrix: { type: 'array', items: { type: 'array', items: { type: 'object' } } } },
  };
  const r = prune(spec, { list: [{ name: 'a' }, { name: 'b', bogus: 1 }], matrix: [[{ x: 1 }]] });
  t.deepEqual(r.paths, ['spec.list[1].bogus', 'spec.matrix[0][0].x']);
  t.deepEqual(r.spec, { list: [{ name: 'a' }, { name: 'b' }], matrix: [[{}]] });
});

test('x-kubernetes-preserve-unknown-fields keeps unknown fields but prunes declared ones by their schema', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      free: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { strict: { type: 'object', properties: { a: { type: 'string' } } } },
      },
    },
  };
  const r = prune(spec, { free: { anything: { goes: [1, { x: 2 }] }, strict: { a: 'x', b: 'y' } } });
  t.deepEqual(r.paths, ['spec.free.strict.b']);
  t.deepEqual(r.spec, { free: { anything: { goes: [1, { x: 2 }] }, strict: { a: 'x' } } });
  const whole = prune({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, { a: { b: 1 } });
  t.deepEqual(whole.paths, []);
  t.deepEqual(whole.spec, { a: { b: 1 } });
});

test('additionalProperties: every key is kept, values are pruned by the value schema', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      ports: { type: 'object', additionalProperties: { type: 'object', properties: { port: { type: 'integer' } } } },
    },
  };
  const r = prune(spec, { labels: { a: 'x', b: 'y' }, ports: { http: { port: 80, bogus: 1 } } });
  t.deepEqual(r.paths, ['spec.ports.http.bogus']);
  t.deepEqual(r.spec, { labels: { a: 'x', b: 'y' }, ports: { http: { port: 80 } } });
});

test('embedded resources keep apiVersion, kind and metadata', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      template: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
      },
    },
  };
  const template = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { size: 1, bogus: 1 }, status: {} };
  const r = prune(spec, { template });
  t.deepEqual(r.paths, ['spec.template.spec.bogus', 'spec.template.status']);
  t.deepEqual(r.spec, { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { size: 1 } } });
  const r2 = prune({ type: 'object', properties: { t: { type: 'object', properties: { x: { type: 'string' } } } } }, { t: { apiVersion: 'v1', x: 'y' } });
  t.deepEqual(r2.paths, ['spec.t.apiVersion'], 'apiVersion is only kept in embedded resources');
});

test('int-or-string values and objects without declared properties', (t) => {
  const spec: JSONSchemaProps = { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true }, empty: { type: 'object' } } };
  const r = prune(spec, { port: 'http', empty: { a: 1, b: { c: 2 } } });
  t.deepEqual(r.paths, ['spec.empty.a', 'spec.empty.b']);
  t.deepEqual(r.spec, { port: 'http', empty: {} });
});

test('null values of non-nullable fields without default are removed (not reported)', (t) => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      plain: { type: 'string' },
      nullable: { type: 'string', nullable: true },
      defaulted: { type: 'string', default: 'd' },
      list: { type: 'array', items: { type: 'string' } },
      map: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };
  const r = prune(spec, { plain: null, nullable: null, defaulted: null, list: [null], map: { a: null, b: 'x' } });
  t.deepEqual(r.paths, []);
  t.deepEqual(r.spec, { nullable: null, defaulted: null, list: [null], map: { b: 'x' } });
});
