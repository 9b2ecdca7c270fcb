import test from 'ava';
import { prng } from '../../../../helpers/seeded-random.js';
import { independentCbor as independent } from '../../../../helpers/independent-cbor.js';
import { CborCodec } from '../../../../../plugins/codecs/cbor/index.js';

/**
 * Property: for random valid JSON-shaped objects, a CBOR round trip gives the same object a JSON round trip gives,
 * and an independent decoder (node-cbor) reads the CBOR the same way.
 */

const codec = new CborCodec();
const expected = { apiVersion: 'example.com/v1', kind: 'Widget' };


type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function generator(rand: () => number) {
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const view = new DataView(new ArrayBuffer(8));

  /** Well-formed Unicode only: strings travel as UTF-8 in CBOR (and kube's JSON decoder replaces lone surrogates). */
  const codePoint = (): number => {
    switch (int(5)) {
      case 0:
        return 0x20 + int(0x5f);
      case 1:
        return int(0x80); // control characters included
      case 2:
        return 0x80 + int(0x780);
      case 3: {
        const c = 0x800 + int(0xf800);
        return c >= 0xd800 && c <= 0xdfff ? 0x41 : c;
      }
      default:
        return 0x10000 + int(0x100000);
    }
  };
  const string = (max = 24): string => {
    const len = rand() < 0.05 ? 24 + int(400) : int(max);
    let s = '';
    for (let i = 0; i < len; i++) s += String.fromCodePoint(codePoint());
    return s;
  };
  const number = (): number => {
    switch (int(9)) {
      case 0:
        return pick([0, -0, 1, -1, 23, 24, 255, 256, 65535, 65536, 2 ** 31, 2 ** 32, 2 ** 53 - 1, -(2 ** 53 - 1), -(2 ** 63), 2 ** 63, 2 ** 64]);
      case 1:
        return int(1000) - 500;
      case 2:
        return Math.round((rand() - 0.5) * 2 ** 53);
      case 3:
        return (rand() - 0.5) * 1000;
      case 4:
        return int(4096) / 8 - 256; // halves, quarters, eighths: float16 material
      case 5:
        return Math.fround((rand() - 0.5) * 1e6); // float32 material
      case 6:
        return pick([0.1, 1e-7, 1e300, -1e-300, 5e-324, 1.7976931348623157e308, 65504, 6.103515625e-5, 2 ** -24, 2 ** -25]);
      default: {
        // Any finite double, from random bits.
        for (;;) {
          view.setUint32(0, int(2 ** 32));
          view.setUint32(4, int(2 ** 32));
          const v = view.getFloat64(0);
          if (Number.isFinite(v)) return v;
        }
      }
    }
  };
  const value = (depth: number): Json => {
    const r = rand();
    if (depth > 0 && r < 0.2) return object(depth - 1);
    if (depth > 0 && r < 0.3) return Array.from({ length: int(8) }, () => value(depth - 1));
    if (r < 0.55) return string();
    if (r < 0.85) return number();
    if (r < 0.95) return rand() < 0.5;
    return null;
  };
  const object = (depth: number): { [k: string]: Json } => {
    const o: { [k: string]: Json } = {};
    const n = int(9);
    for (let i = 0; i < n; i++) o[string(12)] = value(depth);
    return o;
  };
  return { object };
}

function plain(v: unknown): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [Buffer.isBuffer(k) ? k.toString('utf8') : k, plain(x)]));
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'bigint') return Number(v);
  return v;
}

test('random JSON-shaped objects: CBOR round trip equals JSON round trip, and node-cbor agrees', (t) => {
  const cases = 3000;
  for (let seed = 1; seed <= cases; seed++) {
    const obj = generator(prng(seed)).object(5);
    const viaJson = JSON.parse(JSON.stringify(obj));
    const bytes = codec.encode(obj);
    let viaCbor: unknown;
    try {
      viaCbor = codec.decode(bytes, expected);
    } catch (err) {
      t.fail(`seed ${seed}: ${(err as Error).message}`);
      return;
    }
    // deepEqual tells 0 from -0; JSON gives 0 for -0 and so does CBOR (an integer).
    if (JSON.stringify(viaCbor) !== JSON.stringify(viaJson)) {
      t.deepEqual(viaCbor, viaJson, `seed ${seed}`);
      return;
    }
    if (seed % 3 === 0 && JSON.stringify(plain(independent.decode(bytes))) !== JSON.stringify(viaJson)) {
      t.deepEqual(plain(independent.decode(bytes)), viaJson, `seed ${seed}: node-cbor reads it differently`);
      return;
    }
  }
  t.pass(`${cases} objects`);
});

test('CBOR is smaller than JSON for typical objects', (t) => {
  const rand = prng(42);
  let json = 0;
  let cbor = 0;
  for (let i = 0; i < 200; i++) {
    const obj = generator(rand).object(4);
    json += Buffer.byteLength(JSON.stringify(obj));
    cbor += codec.encode(obj).length;
  }
  t.true(cbor < json, `cbor ${cbor} bytes, json ${json} bytes`);
});
