/** Seeded mutation of JSON bodies for fuzz tests: deterministic, so a failure names a body that reproduces it. */
import type { ExecutionContext } from 'ava';
import type { TestResponse } from './test-server.js';

/** mulberry32: a tiny deterministic PRNG. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every path to a value below the object (the root's apiVersion and kind excluded: they pick the endpoint). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const out: (string | number)[][] = [];
  for (const [k, v] of entries) {
    if (prefix.length === 0 && (k === 'apiVersion' || k === 'kind')) continue;
    out.push([...prefix, k], ...paths(v, [...prefix, k]));
  }
  return out;
}

const pick = <T>(next: () => number, choices: T[]): T => choices[Math.floor(next() * choices.length)];

/** A value of the same JSON type (half the time), else one of any type: nulls, wrong types, lists and objects swapped. */
function mutant(next: () => number, current: unknown): unknown {
  if (next() < 0.5) {
    if (typeof current === 'string') return pick(next, ['', 'x', 'Upper_Case', 'a.b.c', '*', 'self.x ==', 'v1', '-']);
    if (typeof current === 'boolean') return !current;
    if (typeof current === 'number') return pick(next, [-1, 0, 1.5, 2 ** 40]);
    if (Array.isArray(current)) return pick(next, [[], [null], [...current, ...current]]);
    if (current !== null && typeof current === 'object') return pick(next, [{}, { a: null }, { ...current, extra: 1 }]);
  }
  if (Array.isArray(current) && next() < 0.3) return Object.fromEntries(current.map((v, i) => [`k${i}`, v]));
  if (current !== null && typeof current === 'object' && !Array.isArray(current) && next() < 0.3) return Object.values(current);
  return pick(next, [null, 'x', '', 7, -1, 1.5, 2 ** 40, true, false, [], {}, [null], [1], ['a'], { a: 1 }, { a: null }, [[]], [{}]]);
}

/** Replaces one to three random values of a body (in place) with mutants. */
export function mutate(next: () => number, body: any): void {
  const count = 1 + Math.floor(next() * 3);
  for (let i = 0; i < count; i++) {
    const all = paths(body);
    if (all.length === 0) return;
    const path = all[Math.floor(next() * all.length)];
    let parent = body;
    for (const k of path.slice(0, -1)) parent = parent[k];
    const key = path[path.length - 1];
    parent[key] = mutant(next, parent[key]);
  }
}

/** The rule of the fuzz tests: a 2xx, or a 4xx that is a Status; never a 5xx. */
export function expect2xxOr4xx(t: ExecutionContext, res: TestResponse, what: string): void {
  t.true(res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status >= 400) t.is(res.body?.kind, 'Status', `${what}: ${res.text.slice(0, 300)}`);
}

