import test from 'ava';
import { prng } from '../../../../helpers/seeded-random.js';
import { ApiError } from '../../../../../core/contracts/api-error.js';
import { CborCodec } from '../../../../../plugins/codecs/cbor/index.js';

/**
 * Fuzz: random and mutated byte strings fed to the CBOR decoder either decode to a plain JSON-shaped value or fail
 * with a 400 Status, quickly — never another error, a hang or a large allocation.
 */

const codec = new CborCodec();
const expected = { apiVersion: 'example.com/v1', kind: 'Widget' };


/** Decodes one input; returns a description of anything other than success or a 400 ApiError. */
function check(input: Buffer): string | undefined {
  const started = performance.now();
  try {
    const value = codec.decode(input, expected);
    JSON.stringify(value); // a plain JSON-shaped value
  } catch (err) {
    if (!(err instanceof ApiError)) return `${(err as Error)?.name}: ${(err as Error)?.message}`;
    if (err.code !== 400 || err.reason !== 'BadRequest') return `ApiError ${err.code} ${err.reason}: ${err.message}`;
  }
  const ms = performance.now() - started;
  if (ms > 250) return `took ${ms.toFixed(0)}ms`;
  return undefined;
}

const seeds: Buffer[] = [
  codec.encode({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo', labels: { a: 'b' } } }),
  codec.encode({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', annotations: { 'x/y': 'ü✓𝄞' } },
    spec: { replicas: 3, ratio: 0.5, f32: 100000.5, f64: 0.1, neg: -70000, big: 2 ** 40, list: [1, null, true, false, [], {}], s: 'x'.repeat(30) },
  }),
  // Indefinite lengths, text strings, tags 0/1/21/22/23/55799 and an unknown tag.
  Buffer.from(
    'bf' + '6161' + '9f0102ff' + '6162' + '7f616161626163ff' + '6163' + '5f41614162ff' + '6164' + 'c074323030362d30312d30325431353a30343a30355a' +
      '6165' + 'c11a43b940e5' + '6166' + 'd64401020304' + '6167' + 'd9d9f7a0' + '6168' + 'c48221196ab3' + 'ff',
    'hex',
  ),
];

function mutate(rand: () => number, input: Buffer): Buffer {
  const int = (n: number) => Math.floor(rand() * n);
  const b = Buffer.from(input);
  switch (int(7)) {
    case 0: {
      const i = int(b.length);
      b[i] = b[i]! ^ (1 << int(8));
      return b;
    }
    case 1:
      b[int(b.length)] = int(256);
      return b;
    case 2:
      return b.subarray(0, int(b.length));
    case 3: {
      const i = int(b.length + 1);
      return Buffer.concat([b.subarray(0, i), Buffer.from([int(256)]), b.subarray(i)]);
    }
    case 4: {
      // A huge declared length for a string, array or map.
      const i = int(b.length + 1);
      const head = Buffer.from([[0x5b, 0x7b, 0x9b, 0xbb, 0x5a, 0x9a][int(6)]!, int(256), int(256), int(256), int(256), int(256), int(256), int(256), int(256)]);
      return Buffer.concat([b.subarray(0, i), head, b.subarray(i)]);
    }
    case 5: {
      const i = int(b.length);
      const j = i + int(b.length - i);
      return Buffer.concat([b.subarray(0, j), b.subarray(i, j), b.subarray(j)]);
    }
    default:
      return Buffer.concat([b, Buffer.from([int(256)])]);
  }
}

test('random byte strings decode or fail with 400', (t) => {
  const rand = prng(7);
  const problems: string[] = [];
  for (let i = 0; i < 6000; i++) {
    const len = Math.floor(rand() * 48);
    const input = Buffer.alloc(len);
    for (let j = 0; j < len; j++) input[j] = Math.floor(rand() * 256);
    // Half of them look like CBOR maps, so the fuzzing reaches past the first byte.
    if (len > 0 && i % 2 === 0) input[0] = 0xa0 | (input[0]! & 0x1f);
    const problem = check(input);
    if (problem) problems.push(`${input.toString('hex')}: ${problem}`);
  }
  t.deepEqual(problems.slice(0, 5), []);
});

test('mutated valid encodings decode or fail with 400', (t) => {
  const rand = prng(11);
  const problems: string[] = [];
  let decoded = 0;
  for (let i = 0; i < 9000; i++) {
    let input = seeds[i % seeds.length]!;
    const rounds = 1 + Math.floor(rand() * 3);
    for (let r = 0; r < rounds; r++) input = mutate(rand, input);
    const problem = check(input);
    if (problem) problems.push(`${input.toString('hex')}: ${problem}`);
    try {
      codec.decode(input, expected);
      decoded++;
    } catch {
      // counted above
    }
  }
  t.deepEqual(problems.slice(0, 5), []);
  t.true(decoded > 0, 'some mutations still decode');
});

test('hostile shapes fail fast with 400: deep nesting, huge lengths, long tag chains, many tiny items', (t) => {
  const inputs = [
    Buffer.alloc(1_000_000, 0x81), // a million nested one-element arrays
    Buffer.alloc(1_000_000, 0x9f), // a million nested indefinite arrays
    Buffer.alloc(1_000_000, 0xc6), // a million nested tags
    Buffer.concat([Buffer.from('a1416b', 'hex'), Buffer.alloc(500_000, 0xd9)]),
    Buffer.from('9b1000000000000000', 'hex'), // a 2^60-element array header
    Buffer.from('bb7fffffffffffffff', 'hex'),
    Buffer.from('5b0fffffffffffffff00', 'hex'),
    Buffer.concat([Buffer.from('9f', 'hex'), Buffer.alloc(2_000_000, 0x00)]), // an indefinite array of 2M items
    Buffer.concat([Buffer.from('5f', 'hex'), Buffer.alloc(1_000_000, 0x40)]), // a million empty chunks, unterminated
  ];
  for (const input of inputs) {
    const started = performance.now();
    const err = t.throws(() => codec.decode(input, expected), { instanceOf: ApiError }) as ApiError;
    t.is(err.code, 400, err.message);
    t.true(performance.now() - started < 1000, `${input.subarray(0, 4).toString('hex')}…: ${(performance.now() - started).toFixed(0)}ms`);
  }
});
