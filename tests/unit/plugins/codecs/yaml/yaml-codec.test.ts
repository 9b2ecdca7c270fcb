/**
 * The YAML codec's safety and fidelity: request bodies are decoded through the core's decodeBody (the codec, then the
 * depth check) exactly as the server does. Hostile input (alias bombs, custom tags, several documents, deep nesting,
 * random and mutated bytes) is a 400 ApiError, quickly, never another error; responses read back as what was encoded.
 */
import test from 'ava';
import { prng } from '../../../../helpers/seeded-random.js';
import YAML from 'yaml';
import { YamlCodec } from '../../../../../plugins/codecs/yaml/index.js';
import { decodeBody } from '../../../../../core/contracts/body-decoding.js';
import { ApiError } from '../../../../../core/contracts/api-error.js';

const codec = new YamlCodec();
const expected = { apiVersion: 'example.com/v1', kind: 'Widget' };

function decode(text: string | Buffer): unknown {
  return decodeBody(codec, Buffer.isBuffer(text) ? text : Buffer.from(text), expected);
}

/** The 400 a body gets (fails the test when the body decodes or anything but a 400 ApiError is thrown). */
function refused(t: import('ava').ExecutionContext, text: string | Buffer, what: string): string {
  try {
    decode(text);
  } catch (err) {
    t.true(err instanceof ApiError, `${what}: ${String(err)}`);
    t.is((err as ApiError).code, 400, what);
    return (err as ApiError).status.message ?? '';
  }
  t.fail(`${what}: decoded`);
  return '';
}

/** Runs `fn` and returns how long it took, in ms. */
function timed(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

test('a "billion laughs" alias bomb is 400 within milliseconds', (t) => {
  let bomb = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
  let message = '';
  const ms = timed(() => (message = refused(t, bomb, 'alias bomb')));
  t.is(message, 'error converting YAML to JSON: yaml: document contains excessive aliasing');
  t.true(ms < 500, `${ms}ms`);
});

test('a bomb built from merge keys is 400 too', (t) => {
  let bomb = 'm0: &m0 {k: 1}\n';
  for (let i = 1; i < 40; i++) bomb += `m${i}: &m${i}\n  <<: *m${i - 1}\n  l: [*m${i - 1}, *m${i - 1}]\n`;
  const ms = timed(() => refused(t, bomb, 'merge bomb'));
  t.true(ms < 500, `${ms}ms`);
});

test('ordinary anchors, aliases and merge keys decode', (t) => {
  const text = 'base: &base {color: red, size: 2}\nitems:\n' + Array.from({ length: 200 }, () => '- *base').join('\n') + '\nmerged:\n  <<: *base\n  size: 3\n';
  const value = decode(text) as any;
  t.is(value.items.length, 200);
  t.deepEqual(value.items[199], { color: 'red', size: 2 });
  t.deepEqual(value.merged, { color: 'red', size: 3 });
});

test('custom and non-core tags are 400, not strings or code', (t) => {
  for (const text of ['a: !!js/function "function () { return 1 }"', 'a: !!python/object:os.system [ls]', 'a: !custom x', 'a: !!binary aGVsbG8=', 'a: !!timestamp 2024-01-01', 'a: !!set {x, y}']) {
    t.regex(refused(t, text, text), /^error converting YAML to JSON: yaml: line 1: Unresolved tag/);
  }
  t.deepEqual(decode('a: !!str 12\nb: !!int "7"\nc: !!map {d: 1}'), { a: '12', b: 7, c: { d: 1 } });
});

test('more than one document is 400; an empty trailing document is not one', (t) => {
  t.is(refused(t, 'a: 1\n---\nb: 2\n', 'two documents'), 'error converting YAML to JSON: yaml: a single YAML document is required, found 2 documents');
  t.deepEqual(decode('---\na: 1\n---\n'), { a: 1 });
  t.is(decode(''), null);
  t.is(decode('# only a comment\n'), null);
});

test('hostile nesting is 400 before the parser runs, without exhausting memory', (t) => {
  const hostile = ['['.repeat(1_500_000), '{a: '.repeat(400_000), '- '.repeat(1_000_000), Array.from({ length: 2_100 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')];
  // refused by the lexer's nesting bound (linear), not by the parser, which would exhaust the heap on them
  for (const text of hostile) t.regex(refused(t, text, `${text.slice(0, 10)}… (${text.length} chars)`), /nesting exceeds the maximum depth of 1000$/);
  // Deep but reasonable nesting decodes; deeper than the core's limit is 400 for YAML as for JSON.
  const nested = (depth: number) => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}k:`).join('\n') + ' 1';
  t.truthy(decode(nested(100)));
  t.regex(refused(t, `{"a":${'['.repeat(1500)}${']'.repeat(1500)}}`, 'JSON text nested 1500 deep'), /nesting exceeds the maximum depth of 1000/);
});

test('numbers JSON cannot carry and collections as keys are 400', (t) => {
  t.is(refused(t, 'a: .inf', '.inf'), 'error converting YAML to JSON: json: unsupported value: +Inf');
  t.is(refused(t, 'a: -.Inf', '-.inf'), 'error converting YAML to JSON: json: unsupported value: -Inf');
  t.is(refused(t, 'a: .nan', '.nan'), 'error converting YAML to JSON: json: unsupported value: NaN');
  t.regex(refused(t, '[a, b]: 1', 'sequence key'), /line 1: a mapping key must be a scalar/);
  t.regex(refused(t, 'x: &k {a: 1}\n*k : 2', 'alias of a map as key'), /line 2: a mapping key must be a scalar/);
});

test('syntax errors name the line', (t) => {
  t.regex(refused(t, 'apiVersion: v1\nkind: Widget\nmetadata: {name: x\nspec: [unclosed\n', 'unclosed flow'), /^error converting YAML to JSON: yaml: line \d+: /);
  t.is(refused(t, 'a:\n\tb: 1', 'tab indentation'), 'error converting YAML to JSON: yaml: line 2: Tabs are not allowed as indentation');
});

test('JSON text decodes as JSON (the fast path), and YAML reads the core schema', (t) => {
  const json = '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"x"},"spec":{"n":1e3,"s":"yes"}}';
  t.deepEqual(decode(json), JSON.parse(json));
  t.deepEqual(decode('a: yes\nb: 0o14\nc: 0x1F\nd: ~\ne: "12"\nf: 1.5\ng: true\nh: 2024-01-02'), { a: 'yes', b: 12, c: 31, d: null, e: '12', f: 1.5, g: true, h: '2024-01-02' });
});

test('a "__proto__" key is read as data by the codec, never as a prototype, and refused by the body decoder', (t) => {
  const json = '{"metadata":{"name":"x","__proto__":{"polluted":true}}}';
  t.deepEqual(codec.decode(Buffer.from(json)), JSON.parse(json));
  t.deepEqual(codec.decode(Buffer.from('__proto__: {polluted: true}')), JSON.parse('{"__proto__":{"polluted":true}}'));
  t.is(({} as any).polluted, undefined);
  t.regex(refused(t, json, 'JSON'), /the field name "__proto__" is not supported/);
  t.regex(refused(t, '__proto__: {polluted: true}', 'YAML'), /the field name "__proto__" is not supported/);
});


const awkwardStrings = ['', 'yes', 'no', 'on', 'off', 'y', 'n', 'true', 'null', '~', '123', '0o14', '012', '1e3', '.inf', '-.nan', '2024-01-02T03:04:05Z', 'a: b', '- x', '#c', ' lead', 'trail ', 'multi\nline\n', '"quoted"', "it's", '{x}', '[y]', '&a', '*a', '!tag', '%p', '@', '`', 'ünïcödé ✓', 'tab\there', '<<', '---', '...'];

function randomValue(rand: () => number, depth: number): unknown {
  const pick = rand();
  if (depth > 4 || pick < 0.45) {
    const kind = Math.floor(rand() * 5);
    if (kind === 0) return awkwardStrings[Math.floor(rand() * awkwardStrings.length)];
    if (kind === 1) return Math.floor(rand() * 2e9) - 1e9;
    if (kind === 2) return rand() < 0.5 ? rand() * 1e6 : -rand();
    if (kind === 3) return rand() < 0.5;
    return null;
  }
  if (pick < 0.7) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  const obj: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 5); i > 0; i--) obj[awkwardStrings[Math.floor(rand() * awkwardStrings.length)] + (rand() < 0.5 ? '' : String(i))] = randomValue(rand, depth + 1);
  return obj;
}

test('responses read back as the object encoded (2,000 random objects with awkward strings)', (t) => {
  const rand = prng(7);
  for (let i = 0; i < 2000; i++) {
    const value = { apiVersion: 'v1', kind: 'Thing', data: randomValue(rand, 0) };
    const text = codec.encode(value);
    t.deepEqual(YAML.parse(text), value, text);
    t.deepEqual(decode(text), value, text);
  }
  t.true(codec.encode({ kind: 'K', apiVersion: 'v1', metadata: {} }).startsWith('apiVersion: v1\nkind: K\n'), 'keys are sorted');
});

const seeds = [
  'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {a: b}\nspec:\n  color: red\n  replicas: 3\n  tags: [x, y]\n',
  'a: &x {b: [1, 2, {c: d}]}\ne: *x\nf:\n  <<: *x\n  g: |\n    literal\n    text\n  h: >-\n    folded\n    text\n',
  '? complex\n: value\n"quoted key": \'single\'\nlist:\n- - nested\n  - seq\n- {flow: map}\n',
  '%YAML 1.2\n---\nkey: !!str value\nnum: !!int 42\n...\n',
  '{"json": true, "arr": [1, 2.5, "s", null], "obj": {"k": "v"}}',
];
const tokens = ['&a ', '*a', '<<: ', '!!js/function ', '!x ', '- ', '? ', ': ', '[', ']', '{', '}', ',', '"', "'", '|', '>', '#', '---\n', '...\n', '%TAG ! tag:x:\n', '\t', '\n', '  ', '\\', '\u0000', '\uFEFF', '@', '`'];

function mutate(rand: () => number, text: string): string {
  let s = text;
  for (let n = 1 + Math.floor(rand() * 4); n > 0; n--) {
    const at = Math.floor(rand() * (s.length + 1));
    const op = Math.floor(rand() * 5);
    if (op === 0) s = s.slice(0, at) + tokens[Math.floor(rand() * tokens.length)] + s.slice(at);
    else if (op === 1) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rand() * 8));
    else if (op === 2) s = s.slice(0, at);
    else if (op === 3) s = s.slice(0, at) + s.slice(Math.floor(rand() * s.length));
    else s = s.slice(0, at) + String.fromCharCode(Math.floor(rand() * 128)) + s.slice(at + 1);
  }
  return s;
}

test('fuzz: 6,000 random and mutated bodies each decode or are a 400 ApiError, quickly', (t) => {
  const rand = prng(42);
  let decoded = 0;
  let slowest = 0;
  for (let i = 0; i < 6000; i++) {
    let input: Buffer;
    if (i % 3 === 0) input = Buffer.from(Array.from({ length: Math.floor(rand() * 200) }, () => Math.floor(rand() * 256)));
    else if (i % 3 === 1) input = Buffer.from(Array.from({ length: Math.floor(rand() * 120) }, () => tokens[Math.floor(rand() * tokens.length)] + (rand() < 0.5 ? 'k' : '')).join(''));
    else input = Buffer.from(mutate(rand, seeds[Math.floor(rand() * seeds.length)]));
    const started = performance.now();
    try {
      decode(input);
      decoded++;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 400) {
        t.fail(`case ${i} ${JSON.stringify(input.toString('utf8'))}: ${err instanceof ApiError ? err.code : String(err)}`);
        return;
      }
    }
    slowest = Math.max(slowest, performance.now() - started);
  }
  t.true(decoded > 500, `${decoded} decoded`); // the mutations keep many bodies valid, so both paths are exercised
  t.true(slowest < 500, `slowest ${slowest}ms`);
});
