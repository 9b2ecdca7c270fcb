import 'reflect-metadata';
import test from 'ava';
import { independentCbor as independent } from '../../../../helpers/independent-cbor.js';
import { container } from 'tsyringe';
import { ApiError } from '../../../../../core/contracts/api-error.js';
import { Tokens } from '../../../../../core/contracts/tokens.js';
import type { Codec } from '../../../../../core/contracts/codec.js';
import { CborCodec, cborCodec, encodeCbor } from '../../../../../plugins/codecs/cbor/index.js';
import { ResourceTypeRegistry } from '../../../../../core/registry/resource-registry.js';
import { secretResource } from '../../../../../builtin/secrets/secret-resource.js';

const codec = new CborCodec();
const widget = { apiVersion: 'example.com/v1', kind: 'Widget' };
const hex = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');
/** A CBOR byte string / text string head + UTF-8 bytes, written by hand. */
const str = (major: number, s: string) => {
  const n = Buffer.byteLength(s);
  const head = n < 24 ? [(major << 5) | n] : [(major << 5) | 24, n];
  return Buffer.concat([Buffer.from(head), Buffer.from(s)]).toString('hex');
};
const bstr = (s: string) => str(2, s);
const tstr = (s: string) => str(3, s);

function plain(v: unknown): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [Buffer.isBuffer(k) ? k.toString('utf8') : k, plain(x)]));
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'bigint') return Number(v); // the independent decoder reads large 8-byte integers as bigints
  return v;
}

function decodeError(t: import('ava').ExecutionContext, bytes: Buffer, expected = widget): string {
  const err = t.throws(() => codec.decode(bytes, expected), { instanceOf: ApiError }) as ApiError;
  t.is(err.code, 400);
  t.is(err.reason, 'BadRequest');
  return err.message;
}

test('encodes a small object to the bytes kube writes: self-described tag, byte strings, definite lengths', (t) => {
  const bytes = codec.encode({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } });
  const expected =
    'd9d9f7' + // tag 55799
    'a3' + // map(3)
    '4a' + '61706956657273696f6e' + // 'apiVersion'
    '42' + '7631' + // 'v1'
    '44' + '6b696e64' + // 'kind'
    '49' + '4e616d657370616365' + // 'Namespace'
    '48' + '6d65746164617461' + // 'metadata'
    'a1' + '44' + '6e616d65' + '44' + '64656d6f'; // {'name': 'demo'}
  t.is(bytes.toString('hex'), expected);
});

test('numbers: integers as CBOR integers, other numbers in the shortest float width that keeps them', (t) => {
  const cases: [number, string][] = [
    [0, '00'],
    [23, '17'],
    [24, '1818'],
    [255, '18ff'],
    [256, '190100'],
    [65536, '1a00010000'],
    [2 ** 32, '1b0000000100000000'],
    [2 ** 53 - 1, '1b001fffffffffffff'],
    [-1, '20'],
    [-25, '3818'],
    [-(2 ** 53 - 1), '3b001ffffffffffffe'],
    [-(2 ** 63), '3b7fffffffffffffff'],
    [-0, '00'],
    [1.5, 'f93e00'],
    [-2.5, 'f9c100'],
    [0.5, 'f93800'],
    [2 ** -24, 'f90001'], // the smallest float16 subnormal
    [2 ** -25, 'fa33000000'],
    [100000.5, 'fa47c35040'],
    [2 ** 63, 'fa5f000000'], // integral but beyond int64: a float, as in kube
    [0.1, 'fb3fb999999999999a'],
    [1e300, 'fb7e37e43c8800759c'],
  ];
  for (const [n, bytes] of cases) {
    const out = encodeCbor(n);
    t.is(out.toString('hex'), 'd9d9f7' + bytes, `encoding ${n}`);
    t.is(plain(independent.decode(out)), n === 0 ? 0 : n, `the independent decoder reads back ${n}`);
  }
});

test('strings are byte strings of their UTF-8 bytes, with the shortest length head', (t) => {
  const cases: [string, string][] = [
    ['', '40'],
    ['a'.repeat(23), '57' + '61'.repeat(23)],
    ['a'.repeat(24), '5818' + '61'.repeat(24)],
    ['a'.repeat(255), '58ff' + '61'.repeat(255)],
    ['a'.repeat(256), '590100' + '61'.repeat(256)],
    ['ü', '42c3bc'],
    ['é'.repeat(30), '583c' + 'c3a9'.repeat(30)],
    ['a'.repeat(100) + '𝄞', '5868' + '61'.repeat(100) + 'f09d849e'],
  ];
  for (const [s, bytes] of cases) {
    t.is(encodeCbor(s).toString('hex'), 'd9d9f7' + bytes, `${s.slice(0, 5)}… (${s.length})`);
    t.deepEqual(codec.decode(encodeCbor({ s }), widget), { s });
  }
});

test('NaN and infinite numbers cannot be encoded (500), as kube refuses them', (t) => {
  for (const v of [NaN, Infinity, -Infinity]) {
    const err = t.throws(() => codec.encode({ v }), { instanceOf: ApiError }) as ApiError;
    t.is(err.code, 500);
  }
});

test('objects keep their key order, leave out undefined members and honour toJSON, like JSON.stringify', (t) => {
  const obj = { z: 1, a: undefined, m: [undefined, 'ü'], when: new Date('2024-01-02T03:04:05Z'), f() {} };
  const out = codec.encode(obj);
  t.deepEqual(plain(independent.decode(out)), JSON.parse(JSON.stringify(obj)));
  t.deepEqual(Object.keys(codec.decode(out, widget) as object), ['z', 'm', 'when']);
});

test('round trip: what the codec writes it reads back unchanged, and the independent decoder reads it the same', (t) => {
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w1', namespace: 'default', labels: { 'app.kubernetes.io/name': 'wïdget' }, annotations: {} },
    spec: { replicas: 3, ratio: 0.25, tags: ['a', 'b', '✓', '𝄞'], nested: { deep: [[1, -2], [null, true, false]] }, empty: [], long: 'x'.repeat(70000) },
  };
  const bytes = codec.encode(obj);
  t.true(bytes.subarray(0, 3).equals(hex('d9d9f7')));
  t.deepEqual(codec.decode(bytes, widget), obj);
  t.deepEqual(plain(independent.decode(bytes)), obj);
});

test('decodes what other CBOR encoders write: text strings, no self-described tag, other widths', (t) => {
  const obj = { apiVersion: 'example.com/v1', kind: 'Widget', spec: { n: 1.5, big: 2 ** 40, list: [1, 'two', { three: null }] } };
  const fromOtherEncoder = independent.encode(obj);
  t.deepEqual(codec.decode(fromOtherEncoder, widget), obj);
  // Mixed byte-string and text-string keys, a float32 and an over-long (but valid) integer head.
  const mixed = hex(`a3 ${bstr('a')} fa3fc00000 ${tstr('b')} 1b0000000000000005 ${tstr('c')} ${bstr('ü')}`);
  t.deepEqual(codec.decode(mixed, widget), { a: 1.5, b: 5, c: 'ü' });
});

test('indefinite-length strings, arrays and maps are accepted', (t) => {
  const bytes = hex(`bf ${tstr('s')} 7f 626869 6121 ff ${tstr('b')} 5f 4161 4162 ff ${tstr('l')} 9f 01 9f ff ff ff`);
  t.deepEqual(codec.decode(bytes, widget), { s: 'hi!', b: 'ab', l: [1, []] });
});

test('tags: the self-described tag anywhere and unknown tags give their content; 21-23 encode byte strings', (t) => {
  const bytes = hex(
    `a5 ${tstr('self')} d9d9f7 01` +
      ` ${tstr('frac')} c4 82 21 196ab3` + // 4([-2, 27315]), a decimal fraction kube does not know
      ` ${tstr('b64')} d6 44 01020304` + // 22(h'01020304')
      ` ${tstr('b64url')} d5 43 fbff00` + // 21(h'fbff00')
      ` ${tstr('b16')} d7 a1 ${tstr('k')} 42 abcd`, // 23({"k": h'abcd'}): the tag reaches nested byte strings
  );
  t.deepEqual(codec.decode(bytes, widget), { self: 1, frac: [-2, 27315], b64: 'AQIDBA==', b64url: '-_8A', b16: { k: 'abcd' } });
});

test('time tags become RFC 3339 strings as kube decodes them', (t) => {
  const bytes = hex(
    `a4 ${tstr('t0')} c0 ${tstr('2006-01-02T15:04:05Z')}` +
      ` ${tstr('t0z')} c0 ${tstr('2006-01-02T15:04:05.500+01:00')}` +
      ` ${tstr('t1')} c1 1a43b940e5` +
      ` ${tstr('t1f')} c1 fbbff8000000000000`, // 1(-1.5)
  );
  t.deepEqual(codec.decode(bytes, widget), {
    t0: '2006-01-02T15:04:05Z',
    t0z: '2006-01-02T15:04:05.5+01:00',
    t1: '2006-01-02T15:04:05Z',
    t1f: '1969-12-31T23:59:58.5Z',
  });
  t.is(
    decodeError(t, hex(`a1 ${tstr('t')} c0 ${bstr('2006-01-02T15:04:05Z')}`)),
    'Widget in version "v1" cannot be handled as a Widget: cbor: tag number 0 must be followed by text string, got byte string',
  );
  t.regex(decodeError(t, hex(`a1 ${tstr('t')} c0 ${tstr('text')}`)), /cannot parse "text" as "2006"$/);
  t.regex(decodeError(t, hex(`a1 ${tstr('t')} c1 1b0000003afff44181`)), /year outside of range \[0,9999\]$/);
});

test('a body without apiVersion/kind, null or wrapped in tags still decodes; kinds come from the endpoint later', (t) => {
  t.deepEqual(codec.decode(hex(`d9d9f7 a1 ${bstr('spec')} a0`), widget), { spec: {} });
  t.is(codec.decode(hex('d9d9f7 f6'), widget), null);
});

test('a "__proto__" key is an own property, as JSON.parse makes it', (t) => {
  const out = codec.decode(hex(`a1 ${bstr('__proto__')} a1 ${bstr('polluted')} f5`), widget) as Record<string, unknown>;
  t.true(Object.prototype.hasOwnProperty.call(out, '__proto__'));
  t.is(({} as Record<string, unknown>).polluted, undefined);
  t.is(Object.getPrototypeOf(out), Object.prototype);
});

test('malformed data: "unrecognized … unable to determine group/version/kind" with kube\'s texts and hex summary', (t) => {
  const cases: [string, string][] = [
    ['', 'EOF (<empty>)'],
    ['d9d9f7', 'unexpected EOF (d9d9f7)'],
    ['d9d9f7a1', 'unexpected EOF (d9d9f7a1)'],
    ['d9d9f7a0ff', 'cbor: 1 bytes of extraneous data starting at index 4 (d9d9f7a0ff)'],
    ['a0a0', 'cbor: 1 bytes of extraneous data starting at index 1 (a0a0)'],
    ['1c', 'cbor: invalid additional information 28 for type positive integer (1c)'],
    ['ff', 'cbor: unexpected "break" code (ff)'],
    ['f818', 'cbor: invalid simple value 24 for type primitives (f818)'],
    ['9b0fffffffffffffff', 'cbor: exceeded max number of elements 1024 for CBOR array (9b0fffffffffffffff)'],
    ['bb1000000000000000', 'cbor: exceeded max number of key-value pairs 1024 for CBOR map (bb1000000000000000)'],
    ['5bffffffffffffffff', 'cbor: byte string length 18446744073709551615 is too large, causing integer overflow (5bffffffffffffffff)'],
    ['9bffffffffffffffff', 'cbor: array length 18446744073709551615 is too large, it would cause integer overflow (9bffffffffffffffff)'],
    ['5a10000000', 'unexpected EOF (5a10000000)'],
    ['7f4161ff', 'cbor: wrong element type byte string for indefinite-length UTF-8 text string (7f4161ff)'],
    ['5f5fffff', 'cbor: indefinite-length byte string chunk is not definite-length (5f5fffff)'],
    ['bf01ff', 'cbor: unexpected "break" code (bf01ff)'],
    ['a1fa7fc00000f6', 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN (a1fa7fc00000f6)'],
    ['f97c00', 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity (f97c00)'],
    ['c249010000000000000000', 'cbor: data item of cbor type tag is not accepted by protocol: bignum (c249010000000000000000)'],
    ['1f', 'cbor: invalid additional information 31 for type positive integer (1f)'],
  ];
  for (const [input, tail] of cases) {
    t.is(
      decodeError(t, hex(input)),
      `the object provided is unrecognized (must be of type Widget): unable to determine group/version/kind: ${tail}`,
      `input ${input || '<empty>'}`,
    );
  }
  const long = Buffer.concat([hex('d9d9f7 a1'), Buffer.alloc(40, 0x41)]);
  t.regex(decodeError(t, long), /\(d9d9f7a1(41){26} \.\.\.\)$/);
});

test('nesting: 64 levels decode, 65 are refused; arrays and maps up to 1024 entries', (t) => {
  const nested = (levels: number) => Buffer.concat([Buffer.alloc(levels - 1, 0x81), hex('80')]);
  t.notThrows(() => codec.decode(Buffer.concat([hex(`a1 ${bstr('x')}`), nested(63)]), widget));
  t.regex(decodeError(t, Buffer.concat([hex(`a1 ${bstr('x')}`), nested(64)])), /cbor: exceeded max nested level 64 \(/);
  // Tags nested in tags count as levels too.
  t.regex(decodeError(t, Buffer.concat([hex(`a1 ${bstr('x')}`), Buffer.alloc(200, 0xc4), hex('00')])), /cbor: exceeded max nested level 64 \(/);

  const array = (n: number) => Buffer.concat([hex(`a1 ${bstr('x')} 99`), Buffer.from([n >> 8, n & 0xff]), Buffer.alloc(n, 0x00)]);
  t.is(((codec.decode(array(1024), widget) as { x: unknown[] }).x).length, 1024);
  t.regex(decodeError(t, array(1025)), /cbor: exceeded max number of elements 1024 for CBOR array \(/);
  const indefinite = Buffer.concat([hex(`a1 ${bstr('x')} 9f`), Buffer.alloc(1025, 0x00), hex('ff')]);
  t.regex(decodeError(t, indefinite), /cbor: exceeded max number of elements 1024 for CBOR array \(/);
});

test('semantic errors once apiVersion/kind are readable: "K in version "v" cannot be handled as a K"', (t) => {
  const head = `a3 ${bstr('apiVersion')} ${bstr('example.com/v1')} ${bstr('kind')} ${bstr('Widget')} ${bstr('spec')}`;
  const cases: [string, string][] = [
    [`a2 ${bstr('a')} 01 ${tstr('a')} 02`, 'cbor: found duplicate map key "a" at map element index 1'],
    [`a1 ${bstr('u')} f7`, 'cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized'],
    [`a1 ${bstr('s')} e0`, 'cbor: data item of cbor type primitives is not accepted by protocol: simple value 0 is not recognized'],
    [`a1 ${bstr('s')} f820`, 'cbor: data item of cbor type primitives is not accepted by protocol: simple value 32 is not recognized'],
    [`a1 ${bstr('t')} 62c328`, 'cbor: invalid UTF-8 string'],
    [`a1 01 02`, 'cbor: cannot unmarshal positive integer into Go value of type string'],
    [`a1 80 02`, 'cbor: cannot unmarshal array into Go value of type string'],
    [`a1 ${bstr('n')} 1b8000000000000000`, "cbor: cannot unmarshal positive integer into Go value of type int64 (9223372036854775808 overflows Go's int64)"],
    [`a1 ${bstr('n')} 3bffffffffffffffff`, "cbor: cannot unmarshal negative integer into Go value of type int64 (-18446744073709551616 overflows Go's int64)"],
  ];
  for (const [spec, cause] of cases) {
    t.is(decodeError(t, hex(head + spec)), `Widget in version "v1" cannot be handled as a Widget: ${cause}`, spec);
  }
  // Without apiVersion in the body, the version is the endpoint's; another kind in the body is named as sent.
  t.is(
    decodeError(t, hex(`a2 ${bstr('kind')} ${bstr('Gadget')} ${bstr('spec')} f7`)),
    'Gadget in version "v1" cannot be handled as a Widget: cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized',
  );
  t.is(
    decodeError(t, hex(`a2 ${bstr('apiVersion')} ${bstr('other.io/v2')} ${bstr('spec')} f7`)),
    'Widget in version "v2" cannot be handled as a Widget: cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized',
  );
});

test('a body that is not a map, or whose top-level keys cannot be read, is unrecognized', (t) => {
  const prefix = 'the object provided is unrecognized (must be of type Widget): unable to determine group/version/kind: ';
  t.is(decodeError(t, hex('d9d9f7 83 010203')), `${prefix}cbor: cannot unmarshal array into Go value of type v1.TypeMeta (d9d9f783010203)`);
  t.is(decodeError(t, hex(tstr('x'))), `${prefix}cbor: cannot unmarshal UTF-8 text string into Go value of type v1.TypeMeta (${tstr('x')})`);
  t.is(
    decodeError(t, hex(`a2 ${bstr('kind')} ${bstr('A')} ${tstr('kind')} ${bstr('B')}`)),
    `${prefix}cbor: found duplicate map key "kind" at map element index 1 (a2${bstr('kind')}${bstr('A')}${tstr('kind')}${bstr('B')})`,
  );
  // A kind that is not a string only matters when the full decode failed too (here: undefined in spec).
  t.is(
    decodeError(t, hex(`a2 ${bstr('kind')} 07 ${bstr('spec')} f7`)),
    `${prefix}cbor: cannot unmarshal positive integer into Go struct field v1.TypeMeta.kind of type string (a2${bstr('kind')}07${bstr('spec')}f7)`,
  );
  t.is(
    decodeError(t, hex(`a1 80 07`)),
    `${prefix}cbor: cannot unmarshal array into Go value of type string (map key is of type array and cannot be used to match struct field name) (a18007)`,
  );
});

test('Tables are not offered in CBOR (kube serves them as JSON and YAML only); everything else is', (t) => {
  t.false(codec.encodes({ apiVersion: 'meta.k8s.io/v1', kind: 'Table' }));
  t.false(codec.encodes({ apiVersion: 'meta.k8s.io/v1beta1', kind: 'Table' }));
  t.true(codec.encodes({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' }));
  t.true(codec.encodes({ apiVersion: 'v1', kind: 'Status' }));
  t.true(codec.encodes(widget));
});

test('the media types kube uses for CBOR', (t) => {
  t.is(codec.mediaType, 'application/cbor');
  t.deepEqual(codec.bodyMediaTypes, ['application/cbor']);
  t.is(codec.applyPatchMediaType, 'application/apply-patch+cbor');
  t.is(codec.stream.contentType, 'application/cbor-seq');
});

test('watch events: one self-described {type, object} item each, the object self-described too', (t) => {
  const frame = codec.stream.encodeEvent('ADDED', { kind: 'Widget', n: 1 });
  t.is(
    frame.toString('hex'),
    'd9d9f7' + 'a2' + bstr('type') + bstr('ADDED') + bstr('object') + 'd9d9f7' + 'a2' + bstr('kind') + bstr('Widget') + bstr('n') + '01',
  );
  // A sequence of frames is read back item by item by an independent decoder.
  const seq = Buffer.concat([frame, codec.stream.encodeEvent('DELETED', { kind: 'Widget', n: 2 })]);
  const items = independent.decodeMultiple(seq) as unknown[];
  t.deepEqual(items.map(plain), [
    { type: 'ADDED', object: { kind: 'Widget', n: 1 } },
    { type: 'DELETED', object: { kind: 'Widget', n: 2 } },
  ]);
});

test('the module registers the codec under Tokens.Codec, knowing the []byte fields of the kinds served', (t) => {
  const c = container.createChildContainer();
  const registry = new ResourceTypeRegistry();
  c.registerInstance(Tokens.Registry, registry);
  cborCodec()(c);
  const codecs = c.resolveAll<Codec>(Tokens.Codec);
  const cbor = codecs.find((x) => x.mediaType === 'application/cbor')!;
  t.truthy(cbor);
  const secret = { apiVersion: 'v1', kind: 'Secret', data: { k: 'AP8=' } };
  t.deepEqual(at(independent.decode(cbor.encode(secret) as Buffer), 'data', 'k'), Buffer.from('AP8='), 'not served yet: a string');
  registry.set(secretResource());
  const tagged = at(independent.decode(cbor.encode(secret) as Buffer), 'data', 'k') as { tag: number; value: Buffer };
  t.is(tagged.tag, 22);
  t.deepEqual(tagged.value, Buffer.from([0x00, 0xff]));
  t.deepEqual(cbor.decode(cbor.encode(secret) as Buffer, secret), secret);
});

/** A member of node-cbor's map output by its key (kube writes keys as byte strings). */
function at(map: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((m, key) => [...(m as Map<unknown, unknown>)].find(([k]) => String(k) === key)?.[1], map);
}
