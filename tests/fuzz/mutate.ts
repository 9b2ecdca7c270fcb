/**
 * Structural mutations of a JSON-like value (a deep copy of a seed): wrong types, nulls, arrays and objects swapped,
 * deep nesting, long strings, thousands of unknown fields, odd keys (`__proto__` among them), int64 and float edges,
 * removed fields, keys in another case, and duplicated keys (kept aside under `duplicates`, written by the JSON text
 * encoder only). Keys are set with defineProperty so that `__proto__` stays an own key.
 */
import { chance, int, oddString, pick, type Rand } from './random.js';

/** An object's duplicated keys: extra `[key, value]` members the JSON text encoder writes after its own. */
export const duplicates = Symbol('duplicates');

type Path = (string | number)[];
type Node = Record<string | symbol, unknown> | unknown[];

export function setKey(obj: object, key: string | number, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A value nested `depth` times in one-element arrays or `{"a": …}` objects, which the encoders write out directly
 * (building it as a JS value would overflow their stacks).
 */
export class Nested {
  constructor(
    readonly depth: number,
    readonly asArrays: boolean,
    readonly inner: unknown,
  ) {}
}

const isContainer = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Buffer.isBuffer(v) && !(v instanceof Nested);

/** Paths of the value's nodes (the root excluded), breadth-first, at most `max` of them and not deeper than 40. */
export function nodePaths(root: unknown, max = 2000): Path[] {
  const out: Path[] = [];
  const queue: [unknown, Path][] = [[root, []]];
  while (queue.length > 0 && out.length < max) {
    const [v, p] = queue.shift()!;
    if (!isContainer(v) || p.length > 40) continue;
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      const child = (v as any)[k];
      out.push([...p, k]);
      queue.push([child, [...p, k]]);
    }
  }
  return out;
}

function parentOf(root: unknown, path: Path): Node {
  let v: any = root;
  for (const k of path.slice(0, -1)) v = v[k];
  return v as Node;
}

/** A random path, or null for the root. */
function randomPath(r: Rand, root: unknown): Path | null {
  const ps = nodePaths(root);
  return ps.length === 0 ? null : pick(r, ps);
}

/** Replaces the node at a random path (or returns the new root when there is no path). */
function replaceAt(r: Rand, root: unknown, make: (old: unknown) => unknown): unknown {
  const p = randomPath(r, root);
  if (!p) return make(root);
  const parent = parentOf(root, p);
  const key = p[p.length - 1]!;
  setKey(parent, key, make((parent as any)[key]));
  return root;
}

/** A random object node (the root included). */
function randomObject(r: Rand, root: unknown): Record<string, unknown> | null {
  const objects = [root, ...nodePaths(root).map((p) => p.reduce((v: any, k) => v[k], root))].filter(
    (v): v is Record<string, unknown> => isContainer(v) && !Array.isArray(v),
  );
  return objects.length === 0 ? null : pick(r, objects);
}

export const edgeNumbers: readonly unknown[] = [
  0, -0, 1, -1, 0.5, 1e-7, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 9007199254740993n,
  2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n), -(2n ** 63n) - 1n, 2n ** 64n - 1n, 2n ** 64n, 10n ** 30n, -(10n ** 30n),
  1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, 5e-324, 1.7976931348623157e308, NaN, Infinity, -Infinity,
];

/** A value of a random type. */
export function randomValue(r: Rand, depth = 0): unknown {
  switch (int(r, depth > 2 ? 5 : 7)) {
    case 0: return null;
    case 1: return chance(r, 0.5);
    case 2: return pick(r, edgeNumbers);
    case 3: return oddString(r);
    case 4: return pick(r, ['', 'true', '1', 'null', '{}', '[]', 'v1', 'Always', '*', '-1', '1e9', '0x10', '2026-11-26T00:00:00Z']);
    case 5: return Array.from({ length: int(r, 4) }, () => randomValue(r, depth + 1));
    default: {
      const o = {};
      for (let i = int(r, 4); i > 0; i--) setKey(o, oddString(r, 6), randomValue(r, depth + 1));
      return o;
    }
  }
}

export const oddKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', '\u0000', 'é', '日本', '💥', '\ud800', 'a.b', 'a/b', '$patch', '$retainKeys', '~1', 'Spec', 'APIVERSION', 'metadata.name'];

function nest(r: Rand, inner: unknown): unknown {
  return new Nested(pick(r, [10, 100, 999, 1000, 1001, 1500, 3000, 10_001, 100_000]), chance(r, 0.5), inner instanceof Nested ? null : inner);
}

/** One mutation, in place where it can be; returns the (possibly new) root. */
const mutations: ((r: Rand, root: unknown) => unknown)[] = [
  // a wrong type
  (r, root) => replaceAt(r, root, () => randomValue(r)),
  // null
  (r, root) => replaceAt(r, root, () => null),
  // arrays and objects swapped, scalars wrapped
  (r, root) =>
    replaceAt(r, root, (old) => {
      if (Array.isArray(old)) return Object.fromEntries(old.map((v, i) => [String(i), v]));
      if (isContainer(old)) return Object.values(old);
      return chance(r, 0.5) ? [old] : { value: old };
    }),
  // deep nesting
  (r, root) => replaceAt(r, root, (old) => nest(r, old)),
  // a long string
  (r, root) => replaceAt(r, root, () => pick(r, ['x', '日', '\\', '"']).repeat(pick(r, [64, 253, 254, 4096, 64 * 1024, 64 * 1024, 64 * 1024, 1024 * 1024, 3 * 1024 * 1024 + 1]))),
  // thousands of unknown fields
  (r, root) => {
    const o = randomObject(r, root);
    if (o) for (let i = pick(r, [100, 100, 2000, 2000, 5000]); i > 0; i--) setKey(o, `unknown${i}`, i);
    return root;
  },
  // an odd key
  (r, root) => {
    const o = randomObject(r, root);
    if (o) setKey(o, pick(r, oddKeys), randomValue(r));
    return root;
  },
  // a number at an int64 or float edge
  (r, root) => replaceAt(r, root, () => pick(r, edgeNumbers)),
  // a removed field, the ones kube requires more often
  (r, root) => {
    const required = [['apiVersion'], ['kind'], ['metadata'], ['metadata', 'name'], ['spec']];
    const p = chance(r, 0.5) ? pick(r, required) : randomPath(r, root);
    if (!p || !isContainer(root)) return root;
    const parent = parentOf(root, p) as any;
    if (!isContainer(parent)) return root;
    if (Array.isArray(parent)) parent.splice(Number(p[p.length - 1]), 1);
    else delete parent[p[p.length - 1]!];
    return root;
  },
  // a key in another case (Go's encoding/json matched keys case-insensitively; kube's decoders do not)
  (r, root) => {
    const o = randomObject(r, root);
    const keys = o ? Object.keys(o) : [];
    if (!o || keys.length === 0) return root;
    const k = pick(r, keys);
    const v = o[k];
    delete o[k];
    setKey(o, chance(r, 0.5) ? k.toUpperCase() : k.charAt(0).toUpperCase() + k.slice(1), v);
    return root;
  },
  // a duplicated key
  (r, root) => {
    const o = randomObject(r, root);
    const keys = o ? Object.keys(o) : [];
    if (!o || keys.length === 0) return root;
    const list = ((o as any)[duplicates] ??= []) as [string, unknown][];
    list.push([pick(r, keys), randomValue(r)]);
    return root;
  },
  // a number as a string, a string as a number
  (r, root) => replaceAt(r, root, (old) => (typeof old === 'number' ? String(old) : typeof old === 'string' ? Number(old.length) : old)),
];

/** Applies 1 to 3 random mutations to `root` (a fresh copy the caller owns); returns the mutated root. */
export function mutateValue(r: Rand, root: unknown): unknown {
  let v = root;
  for (let n = 1 + int(r, 3); n > 0; n--) v = pick(r, mutations)(r, v);
  return v;
}
