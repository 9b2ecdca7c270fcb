/**
 * Kubernetes' list library (isSorted, sum, min, max, indexOf, lastIndexOf) and cel-go's sets extension
 * (sets.contains, sets.equivalent, sets.intersects), with Kubernetes' runtime and estimated costs.
 */
import { global, member, type EstimateArg, type FunctionRegistry } from './functions.js';
import { A, STRING_TRAVERSAL_COST_FACTOR, addRange, factorRange, mulRange, rangeOf } from './stdlib.js';
import { T, type Type } from './types.js';
import { CelError, CelMap, Duration, MAX_INT64, MAX_UINT64, MIN_INT64, UInt, actualSize, celCompare, celEquals, isObjectValue, type Val, type Value } from './values.js';

const COMPARABLE: [string, Type][] = [
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['bool', T.bool],
  ['duration', T.duration],
  ['timestamp', T.timestamp],
  ['string', T.string],
  ['bytes', T.bytes],
];

const SUMMABLE: [string, Type, Value][] = [
  ['int', T.int, 0n],
  ['uint', T.uint, new UInt(0n)],
  ['double', T.double, 0],
  ['duration', T.duration, new Duration(0n)],
];

/** Kubernetes' traversalCost: the cost of walking a value as a data tree (strings by a tenth of their bytes). */
export function k8sTraversalCost(v: Value): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v) * STRING_TRAVERSAL_COST_FACTOR);
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + k8sTraversalCost(x), 0);
  if (v instanceof CelMap) return v.keys().reduce<number>((n, k) => n + k8sTraversalCost(k) + k8sTraversalCost(v.get(k) as Value), 0);
  if (isObjectValue(v)) return v.fieldNames().reduce<number>((n, k) => n + k8sTraversalCost(k) + k8sTraversalCost(v.field(k) as Value), 0);
  return 1;
}

/** Kubernetes' CallCost for list traversals (isSorted, sum, min, max, indexOf, lastIndexOf). */
function listTraversalCost(args: Value[]): number {
  return k8sTraversalCost(args[0]);
}

/** Kubernetes' EstimateCallCost for list traversals. */
function listTraversalEstimate(a: EstimateArg[]): { cost: { min: number; max: number } } {
  const list = a[0];
  if (list.type.kind !== 'list') return { cost: factorRange(list.size, STRING_TRAVERSAL_COST_FACTOR) };
  const el = list.type.elem;
  let elCost = rangeOf(1);
  if (el.kind === 'prim' && (el.name === 'string' || el.name === 'bytes')) elCost = addRange(elCost, factorRange(list.elemSize ?? rangeOf(0), STRING_TRAVERSAL_COST_FACTOR));
  return { cost: mulRange(list.size, elCost) };
}

function sum(list: Value[], zero: Value): Val {
  let acc: Value = zero;
  for (const x of list) {
    if (typeof acc === 'bigint' && typeof x === 'bigint') {
      acc += x;
      if (acc > MAX_INT64 || acc < MIN_INT64) return new CelError('integer overflow');
    } else if (acc instanceof UInt && x instanceof UInt) {
      const v = acc.v + x.v;
      if (v > MAX_UINT64) return new CelError('unsigned integer overflow');
      acc = new UInt(v);
    } else if (typeof acc === 'number' && typeof x === 'number') acc += x;
    else if (acc instanceof Duration && x instanceof Duration) {
      const v = acc.nanos + x.nanos;
      if (v > MAX_INT64 || v < MIN_INT64) return new CelError('duration overflow');
      acc = new Duration(v);
    } else return new CelError('no such overload');
  }
  return acc;
}

function extreme(list: Value[], name: string, prefer: number): Val {
  let result: Value | undefined;
  for (const x of list) {
    if (result === undefined) {
      result = x;
      continue;
    }
    const c = celCompare(result, x);
    if (c === undefined) return new CelError('no such overload');
    if (c === prefer) result = x;
  }
  return result === undefined ? new CelError(`${name} called on empty list`) : result;
}

export function registerKubernetesLists(r: FunctionRegistry): void {
  const extra = { cost: listTraversalCost, estimate: listTraversalEstimate };
  r.add(
    'isSorted',
    ...COMPARABLE.map(([n, t]) =>
      member(
        `list_${n}_is_sorted_bool`,
        [T.list(t)],
        T.bool,
        (a) => {
          const list = a[0] as Value[];
          for (let i = 1; i < list.length; i++) if (celCompare(list[i - 1], list[i]) === 1) return false;
          return true;
        },
        extra,
      ),
    ),
  );
  r.add('sum', ...SUMMABLE.map(([n, t, zero]) => member(`list_${n}_sum_${n}`, [T.list(t)], t, (a) => sum(a[0] as Value[], zero), extra)));
  r.add('max', ...COMPARABLE.map(([n, t]) => member(`list_${n}_max_${n}`, [T.list(t)], t, (a) => extreme(a[0] as Value[], 'max', -1), extra)));
  r.add('min', ...COMPARABLE.map(([n, t]) => member(`list_${n}_min_${n}`, [T.list(t)], t, (a) => extreme(a[0] as Value[], 'min', 1), extra)));
  r.add(
    'indexOf',
    member('list_a_index_of_int', [T.list(A), A], T.int, (a) => BigInt((a[0] as Value[]).findIndex((x) => celEquals(x, a[1]))), extra),
  );
  r.add(
    'lastIndexOf',
    member(
      'list_a_last_index_of_int',
      [T.list(A), A],
      T.int,
      (a) => {
        const list = a[0] as Value[];
        for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i], a[1])) return BigInt(i);
        return -1n;
      },
      extra,
    ),
  );
}

/** cel-go's sets extension. */
export function registerSets(r: FunctionRegistry): void {
  const has = (list: Value[], x: Value): boolean => list.some((y) => celEquals(y, x));
  const cost = (a: Value[]): number => actualSize(a[0]) * actualSize(a[1]);
  const estimate = (a: EstimateArg[]): { cost: { min: number; max: number } } => ({ cost: mulRange(a[0].size, a[1].size) });
  r.add('sets.contains', global('list_sets_contains_list', [T.list(A), T.list(A)], T.bool, (a) => (a[1] as Value[]).every((x) => has(a[0] as Value[], x)), { cost, estimate }));
  r.add(
    'sets.equivalent',
    global(
      'list_sets_equivalent_list',
      [T.list(A), T.list(A)],
      T.bool,
      (a) => (a[1] as Value[]).every((x) => has(a[0] as Value[], x)) && (a[0] as Value[]).every((x) => has(a[1] as Value[], x)),
      { cost, estimate },
    ),
  );
  r.add('sets.intersects', global('list_sets_intersects_list', [T.list(A), T.list(A)], T.bool, (a) => (a[1] as Value[]).some((x) => has(a[0] as Value[], x)), { cost, estimate }));
}
