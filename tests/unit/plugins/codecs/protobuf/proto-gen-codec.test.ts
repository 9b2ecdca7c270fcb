/*
 * The protobuf kapi serves for custom resources, built from the CRD's field-number annotation: JSON -> protobuf ->
 * JSON round trips over random valid objects, an independent decoder (protobufjs reading the generated .proto text)
 * on kapi's bytes, and thousands of malformed bodies that must each get a 400 (or decode).
 */
import test from 'ava';
import { ApiError } from '../../../../../core/contracts/api-error.js';
import { decodeBody } from '../../../../../core/contracts/body-decoding.js';
import { ResourceTypeRegistry } from '../../../../../core/registry/resource-registry.js';
import type { ResourceType } from '../../../../../core/contracts/resource-type.js';
import { fieldNumbersAnnotation, generateProto, type CrdSource } from '../../../../../generators/proto/index.js';
import { KubeProtobufCodec } from '../../../../../plugins/codecs/protobuf/index.js';
import { customResourceProtobufKinds } from '../../../../../plugins/codecs/protobuf/custom-resources/index.js';
import type { JSONSchemaProps } from '../../../../../lib/openapi/json-schema-props.js';
import { KubeProtobufClient } from '../../../../helpers/kube-protobuf-client.js';
import { withCapturedLog } from '../../../../helpers/captured-log.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        ratio: { type: 'number' },
        enabled: { type: 'boolean' },
        name: { type: 'string', nullable: true },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        matrix: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
        groups: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        tables: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'number' } } },
        ports: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, port: { type: 'integer' }, target: { 'x-kubernetes-int-or-string': true } },
          },
        },
        byName: { type: 'object', additionalProperties: { type: 'object', properties: { on: { type: 'boolean' } } } },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, nullable: true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        anything: {},
        empty: { type: 'object' },
        deep: { type: 'object', properties: { deeper: { type: 'object', properties: { deepest: { type: 'string' } } } } },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' }, conditions: { type: 'array', items: { type: 'string' } } } },
  },
};

const crd: CrdSource = {
  metadata: { name: 'gadgets.example.com' },
  spec: { group: 'example.com', names: { kind: 'Gadget', listKind: 'GadgetList' }, versions: [{ name: 'v1', storage: true, schema: { openAPIV3Schema: schema } }] },
};
const generated = generateProto(crd);

function gadgetsType(annotations?: Record<string, string>): ResourceType {
  return {
    group: 'example.com',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema }],
    allowUnconditionalUpdate: false,
    verbs: [],
    definedBy: { crd: 'gadgets.example.com' },
    ...(annotations ? { annotations } : {}),
  };
}

const registry = new ResourceTypeRegistry();
registry.set(gadgetsType({ [fieldNumbersAnnotation]: generated.annotation }));
const codec = new KubeProtobufCodec(customResourceProtobufKinds(registry));
const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget' };
const gadgetList = { apiVersion: 'example.com/v1', kind: 'GadgetList' };

// ---- random valid objects ------------------------------------------------------------------------------------------

let seed = 42;
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
}
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
const strings = ['', 'a', 'hello world', 'ünïcødé ✓', '"quoted"\n', '0', 'x'.repeat(200)];
const keys = ['a', 'b', 'key-1', 'ключ', 'constructor', 'with.dot', ''];

function randomJson(depth: number): unknown {
  switch (int(depth > 2 ? 4 : 6)) {
    case 0:
      return pick(strings);
    case 1:
      return pick([0, 1, -7, 2 ** 40, 3.25]);
    case 2:
      return pick([true, false, null]);
    case 3:
      return int(2) ? 'leaf' : 17;
    case 4:
      return Array.from({ length: int(3) }, () => randomJson(depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: int(3) }, () => [pick(keys), randomJson(depth + 1)]));
  }
}

/** A random value valid for `s`; `field` is true for an object property (empty lists and maps are possible there). */
function randomValue(s: JSONSchemaProps, depth = 0): unknown {
  if (s['x-kubernetes-int-or-string']) return int(2) ? pick(strings) : pick([0, 1, -5, 2 ** 31 - 1, -(2 ** 31)]);
  if (s['x-kubernetes-preserve-unknown-fields'] || s.type === undefined) {
    return s.type === 'object' ? Object.fromEntries(Array.from({ length: int(3) }, () => [pick(keys), randomJson(1)])) : randomJson(0);
  }
  switch (s.type) {
    case 'string':
      return pick(strings);
    case 'integer':
      return pick([0, 1, -1, 42, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 31]);
    case 'number':
      return pick([0, 1.5, -2.25, 1e300, 5e-324, 7]);
    case 'boolean':
      return random() < 0.5;
    case 'array':
      return Array.from({ length: int(3) }, () => randomValue(s.items!, depth + 1));
    default: {
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        const ap = s.additionalProperties;
        return Object.fromEntries(Array.from({ length: int(3) }, () => [pick(keys), randomValue(ap, depth + 1)]));
      }
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(s.properties ?? {})) if (random() < 0.6) out[k] = randomValue(p, depth + 1);
      return out;
    }
  }
}

/** What protobuf keeps of a valid object: lists and maps held directly by a property are left out when empty. */
function expected(value: unknown, s: JSONSchemaProps): unknown {
  if (s.type !== 'object' || !s.properties || s['x-kubernetes-preserve-unknown-fields']) {
    if (s.type === 'array' && s.items?.type === 'object' && s.items.properties) return (value as unknown[]).map((v) => expected(v, s.items!));
    if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') {
      const ap = s.additionalProperties;
      return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, expected(v, ap)]));
    }
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const p = s.properties[k];
    if (!p) continue;
    const collection = (p.type === 'array' || (p.type === 'object' && !p.properties && !p['x-kubernetes-preserve-unknown-fields'] && p.additionalProperties)) && !p['x-kubernetes-int-or-string'];
    if (collection && Object.keys(v as object).length === 0) continue;
    out[k] = expected(v, p);
  }
  return out;
}

function randomGadget(i: number): Record<string, unknown> {
  const { spec, status } = randomValue(schema) as Record<string, unknown>;
  return {
    ...gadget,
    metadata: { name: `g-${i}`, namespace: 'ns', uid: `uid-${i}`, resourceVersion: String(i + 1), generation: i + 1, creationTimestamp: '2026-01-02T03:04:05Z', labels: { app: 'x' } },
    ...(spec !== undefined ? { spec } : {}),
    ...(status !== undefined ? { status } : {}),
  };
}

function expectedGadget(obj: Record<string, unknown>): unknown {
  const { apiVersion, kind, metadata, ...rest } = obj;
  return { apiVersion, kind, metadata, ...(expected(rest, schema) as object) };
}

// ---- round trips ---------------------------------------------------------------------------------------------------

test('random valid custom resources survive JSON -> protobuf -> JSON', (t) => {
  t.true(codec.encodes(gadget));
  t.true(codec.encodes(gadgetList));
  for (let i = 0; i < 500; i++) {
    const obj = randomGadget(i);
    const bytes = codec.encode(obj);
    t.deepEqual(bytes.subarray(0, 4), Buffer.from('k8s\0', 'latin1'));
    t.deepEqual(decodeBody(codec, bytes, gadget), expectedGadget(obj), JSON.stringify(obj));
  }
});

test('a list of custom resources round-trips, its items with apiVersion and kind', (t) => {
  const items = Array.from({ length: 20 }, (_, i) => randomGadget(i));
  const list = { ...gadgetList, metadata: { resourceVersion: '77', continue: 'abc' }, items };
  const decoded = decodeBody(codec, codec.encode(list), gadgetList);
  t.deepEqual(decoded, { ...gadgetList, metadata: { resourceVersion: '77', continue: 'abc' }, items: items.map(expectedGadget) });
  t.deepEqual(decodeBody(codec, codec.encode({ ...gadgetList, metadata: {}, items: [] }), gadgetList), { ...gadgetList, metadata: {}, items: [] });
});

test('zero values that were set stay set; nulls of typed fields are left out, of open fields kept', (t) => {
  const obj = {
    ...gadget,
    metadata: { name: 'zero', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: { size: 0, ratio: 0, enabled: false, name: null, port: 0, config: null, anything: null, empty: {}, deep: { deeper: {} } },
  };
  t.deepEqual(decodeBody(codec, codec.encode(obj), gadget), {
    ...gadget,
    metadata: { name: 'zero', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: { size: 0, ratio: 0, enabled: false, port: 0, config: null, anything: null, empty: {}, deep: { deeper: {} } },
  });
});

test('fields the schema does not declare are not sent', (t) => {
  const obj = { ...gadget, metadata: { name: 'x', creationTimestamp: null }, spec: { size: 1, bogus: true }, extra: 'y' };
  t.deepEqual(decodeBody(codec, codec.encode(obj), gadget), { ...gadget, metadata: { name: 'x', creationTimestamp: null }, spec: { size: 1 } });
});

test('a value that does not fit its field cannot be encoded', (t) => {
  for (const spec of [{ size: 'big' }, { size: 1.5 }, { port: 2 ** 31 }, { port: true }, { labels: { a: 1 } }, { ports: [null] }, { matrix: [1] }]) {
    const err = t.throws(() => codec.encode({ ...gadget, metadata: { name: 'x' }, spec }), { instanceOf: ApiError }, JSON.stringify(spec));
    t.is(err?.code, 500);
  }
});

// ---- an independent decoder: protobufjs reading the generated .proto text ------------------------------------------

const independent = new KubeProtobufClient(generated.proto, 'example.com.v1');

test("kapi's bytes decode with the generated .proto, and bytes written from it decode in kapi", (t) => {
  const obj = {
    ...gadget,
    metadata: { name: 'ind', namespace: 'ns', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: { size: 12, ratio: 0.5, port: 'http', labels: { b: '2', a: '1' }, matrix: [[1, 2], []], ports: [{ name: 'p', port: 80, target: 8080 }], config: { x: [1, null] } },
  };
  const decoded = independent.decode(codec.encode(obj));
  t.is(decoded.apiVersion, 'example.com/v1');
  t.is(decoded.kind, 'Gadget');
  const message = decoded.message;
  t.is(message.metadata.name, 'ind');
  t.is(message.metadata.creationTimestamp.seconds, Date.UTC(2026, 0, 2, 3, 4, 5) / 1000);
  t.is(message.spec.size, 12);
  t.is(message.spec.ratio, 0.5);
  t.deepEqual(message.spec.port, { type: 1, intVal: 0, strVal: 'http' });
  t.deepEqual(message.spec.labels, { a: '1', b: '2' });
  t.deepEqual(message.spec.matrix, [{ items: [1, 2] }, {}]);
  t.deepEqual(message.spec.ports, [{ name: 'p', port: 80, target: { type: 0, intVal: 8080, strVal: '' } }]);
  t.is(Buffer.from(message.spec.config).toString(), '{"x":[1,null]}');

  const body = independent.encode('example.com/v1', 'Gadget', {
    metadata: { name: 'from-client' },
    spec: { size: 3, enabled: false, groups: { g: { items: ['a', 'b'] } }, byName: { k: { on: true } } },
    status: { ready: true },
  });
  t.deepEqual(decodeBody(codec, body, gadget), {
    ...gadget,
    metadata: { name: 'from-client', creationTimestamp: null },
    spec: { size: 3, enabled: false, groups: { g: ['a', 'b'] }, byName: { k: { on: true } } },
    status: { ready: true },
  });
});

// ---- which kinds have protobuf -------------------------------------------------------------------------------------

test.serial('only CRDs whose annotation numbers every field of a served version have protobuf', async (t) => {
  const r = new ResourceTypeRegistry();
  const lookup = customResourceProtobufKinds(r);
  t.is(lookup(gadget), undefined, 'unknown kind');
  r.set(gadgetsType());
  t.is(lookup(gadget), undefined, 'no annotation');
  const partial = JSON.parse(generated.annotation);
  delete partial.v1['$.spec'].size;
  r.set(gadgetsType({ [fieldNumbersAnnotation]: JSON.stringify(partial) }));
  const warnings = await withCapturedLog(async (logged) => {
    t.is(lookup(gadget), undefined, 'a field without a number');
    t.is(lookup(gadget), undefined);
    return logged.map((l) => `${l.level}: ${l.msg}`);
  });
  t.deepEqual(warnings, ['warn: gadgets.example.com v1 is not served as protobuf: version v1: field "size" of $.spec has no field number']);
  r.set(gadgetsType({ [fieldNumbersAnnotation]: generated.annotation }));
  t.truthy(lookup(gadget), 'the CRD was replaced: types are built for the new one');
  t.truthy(lookup(gadgetList));
  t.is(lookup({ apiVersion: 'example.com/v2', kind: 'Gadget' }), undefined, 'a version the CRD does not serve');
  t.is(lookup({ apiVersion: 'v1', kind: 'Gadget' }), undefined);
});

// ---- malformed bodies ----------------------------------------------------------------------------------------------

function expect4xx(t: import('ava').ExecutionContext, body: Buffer, what: string): void {
  try {
    decodeBody(codec, body, gadget);
  } catch (err) {
    // 400 for every malformed body; 415 when a mutated envelope names a kind that has no protobuf form.
    if (!(err instanceof ApiError) || (err.code !== 400 && err.code !== 415)) t.fail(`${what}: ${String(err)} (${body.toString('hex')})`);
  }
}

test('thousands of random and mutated bodies get a 400 (or decode), never another error', (t) => {
  const valid = Array.from({ length: 40 }, (_, i) => codec.encode(randomGadget(i)));
  for (let i = 0; i < 4000; i++) {
    const base = pick(valid);
    const body = Buffer.from(base);
    switch (i % 4) {
      case 0:
        for (let k = 0; k < 1 + int(4); k++) body[4 + int(body.length - 4)] = int(256);
        expect4xx(t, body, 'flipped bytes');
        break;
      case 1:
        expect4xx(t, body.subarray(0, 4 + int(body.length - 4)), 'truncated');
        break;
      case 2: {
        const at = 4 + int(body.length - 4);
        const junk = Buffer.from(Array.from({ length: 1 + int(8) }, () => int(256)));
        expect4xx(t, Buffer.concat([body.subarray(0, at), junk, body.subarray(at)]), 'inserted bytes');
        break;
      }
      default:
        expect4xx(t, Buffer.concat([body.subarray(0, 4), Buffer.from(Array.from({ length: int(64) }, () => int(256)))]), 'random bytes');
    }
  }
  t.pass();
});

test('values protobuf allows but JSON cannot hold are a 400', (t) => {
  const wrap = (spec: object) => independent.encode('example.com/v1', 'Gadget', { metadata: { name: 'x' }, spec });
  const cases: [object, RegExp][] = [
    [{ ratio: NaN }, /spec\.ratio: NaN cannot be represented in JSON/],
    [{ ratio: Infinity }, /spec\.ratio: Infinity cannot be represented in JSON/],
    [{ port: { type: 7 } }, /spec\.port: impossible IntOrString\.Type 7/],
    [{ config: Buffer.from('{not json') }, /spec\.config: invalid JSON/],
    [{ config: Buffer.from('['.repeat(1200) + ']'.repeat(1200)) }, /nesting exceeds the maximum depth/],
  ];
  for (const [spec, message] of cases) {
    const err = t.throws(() => decodeBody(codec, wrap(spec), gadget), { instanceOf: ApiError });
    t.is(err?.code, 400);
    t.regex(err?.message ?? '', message);
  }
});
