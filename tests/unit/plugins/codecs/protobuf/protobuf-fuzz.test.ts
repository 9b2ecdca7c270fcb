// Hostile bytes for the protobuf codec: every failure is a 400 (or 415 for an unknown kind), never another error,
// never slow.
import test, { type ExecutionContext } from 'ava';
import { ApiError } from '../../../../../core/contracts/api-error.js';
import type { TypeMeta } from '../../../../../core/contracts/codec.js';
import { KubeProtobufCodec } from '../../../../../plugins/codecs/protobuf/index.js';

const codec = new KubeProtobufCodec();

let seed = 0x5eed;
function rand(): number {
  // xorshift32: deterministic, so a failure reproduces.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
}
const randInt = (n: number) => Math.floor(rand() * n);

const schema = (depth: number): Record<string, unknown> =>
  depth === 0 ? { type: 'string', enum: ['a', 1, null], default: { x: [true] } } : { type: 'object', properties: { [`p${depth}`]: schema(depth - 1) }, additionalProperties: depth % 2 === 0 };

/** Valid payloads of several kinds, the seeds of the mutations. */
const seeds: { bytes: Buffer; expected: TypeMeta }[] = [
  {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { name: 'n', labels: { a: 'b' }, creationTimestamp: '2026-01-02T03:04:05Z', deletionGracePeriodSeconds: 0, managedFields: [{ manager: 'm', fieldsV1: { 'f:x': {} } }] },
    spec: { finalizers: ['kubernetes'] },
  },
  {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    metadata: { name: 'ws.example.com' },
    spec: { group: 'example.com', names: { plural: 'ws', kind: 'W' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema(6) } }] },
  },
  {
    kind: 'ValidatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    metadata: { name: 'v' },
    webhooks: [{ name: 'w', clientConfig: { url: 'https://x', caBundle: 'UEVN' }, rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }],
  },
  { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 5, preconditions: { uid: 'u' }, dryRun: ['All'] },
].map((o) => ({ bytes: codec.encode(o), expected: { apiVersion: o.apiVersion, kind: o.kind } }));

function mutate(valid: Buffer): Buffer {
  const b = Buffer.from(valid);
  switch (randInt(5)) {
    case 0: // flip bytes after the magic
      for (let n = 1 + randInt(4); n > 0; n--) b[4 + randInt(b.length - 4)] = randInt(256);
      return b;
    case 1: // cut short
      return b.subarray(0, 4 + randInt(b.length - 4));
    case 2: // splice a run of random bytes in
      return Buffer.concat([b.subarray(0, 4 + randInt(b.length - 4)), Buffer.from(Array.from({ length: 1 + randInt(16) }, () => randInt(256))), b.subarray(4 + randInt(b.length - 4))]);
    case 3: // an oversized length varint somewhere
      return Buffer.concat([b.subarray(0, 4 + randInt(b.length - 4)), Buffer.from([0x12, 0xff, 0xff, 0xff, 0xff, 0x0f]), b.subarray(4 + randInt(b.length - 4))]);
    default: // duplicate a slice (repeated fields, merged messages)
      {
        const from = 4 + randInt(b.length - 4);
        return Buffer.concat([b, b.subarray(from, from + randInt(64))]);
      }
  }
}

function expectRefusalOrObject(t: ExecutionContext, body: Buffer, expected: TypeMeta): boolean {
  try {
    const obj = codec.decode(body, expected);
    t.is(typeof obj, 'object');
    // Whatever decodes must encode again (the stored object is served back).
    if (codec.encodes(obj as TypeMeta)) codec.encode(obj as object);
    return true;
  } catch (err) {
    if (!(err instanceof ApiError) || (err.code !== 400 && err.code !== 415)) {
      t.fail(`${body.toString('hex')} for ${expected.kind}: ${String(err)}`);
    }
    return false;
  }
}

test('5,000 mutated payloads of four kinds: each decodes or is a 400', (t) => {
  const started = Date.now();
  let decoded = 0;
  for (let i = 0; i < 5000; i++) {
    const s = seeds[i % seeds.length];
    if (expectRefusalOrObject(t, mutate(s.bytes), s.expected)) decoded++;
  }
  t.true(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
  t.log(`${decoded} of 5000 mutated payloads still decoded`);
});

test('5,000 random byte strings (with and without the magic): each is a 400', (t) => {
  const started = Date.now();
  for (let i = 0; i < 5000; i++) {
    const random = Buffer.from(Array.from({ length: randInt(300) }, () => randInt(256)));
    const body = i % 3 === 0 ? random : Buffer.concat([Buffer.from('k8s\0', 'latin1'), random]);
    expectRefusalOrObject(t, body, seeds[i % seeds.length].expected);
  }
  t.true(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
});

test('deep nesting is refused quickly: a schema 100,000 levels deep, unknown groups, huge declared lengths', (t) => {
  const expected = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
  // JSONSchemaProps.not (field 28) nested without end, inside spec.versions[0].schema.openAPIV3Schema.
  let inner = Buffer.alloc(0);
  for (let i = 0; i < 100_000; i++) inner = Buffer.concat([Buffer.from([0xe2, 0x01]), varint(inner.length), inner]);
  const crdRaw = ld(2, ld(7, ld(4, ld(1, inner))));
  const started = Date.now();
  const err = t.throws(() => codec.decode(envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crdRaw), expected), { instanceOf: ApiError });
  t.is(err!.code, 400);
  t.regex(err!.message, /cannot be handled as a CustomResourceDefinition: nesting exceeds the maximum depth of 1000/);
  const groups = Buffer.alloc(200_000, 0x1b); // field 3, start group, forever
  t.is(t.throws(() => codec.decode(envelope('v1', 'Namespace', groups), { apiVersion: 'v1', kind: 'Namespace' }), { instanceOf: ApiError })!.code, 400);
  const oversized = Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]);
  t.is(t.throws(() => codec.decode(oversized, { apiVersion: 'v1', kind: 'Namespace' }), { instanceOf: ApiError })!.code, 400);
  t.true(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
});

test('a schema as deep as a JSON body may be still decodes', (t) => {
  const expected = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
  let inner = Buffer.alloc(0);
  for (let i = 0; i < 990; i++) inner = Buffer.concat([Buffer.from([0xe2, 0x01]), varint(inner.length), inner]);
  const obj = codec.decode(envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', ld(2, ld(7, ld(4, ld(1, inner))))), expected) as any;
  let depth = 0;
  for (let s = obj.spec.versions[0].schema.openAPIV3Schema; s.not; s = s.not) depth++;
  t.is(depth, 990);
  // And it encodes back.
  t.is(codec.encode(obj).length > 2000, true);
});

function varint(n: number): Buffer {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
}
function ld(field: number, body: Buffer): Buffer {
  return Buffer.concat([varint(field * 8 + 2), varint(body.length), body]);
}
function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = Buffer.concat([ld(1, Buffer.from(apiVersion)), ld(2, Buffer.from(kind))]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), ld(1, typeMeta), ld(2, raw)]);
}
