/**
 * The CEL standard library (cel-go's stdlib with cross-type numeric comparisons and optional types), with cel-go's
 * runtime semantics, error texts and per-call costs.
 */
import { FunctionRegistry, global, member, noSuchOverload, type EstimateArg, type Overload, type Range } from './functions.js';
import { compileRE2, constantRegex, re2Test, re2Tester } from './regex.js';
import { parseGoDuration } from '../go/duration.js';
import { civilTime, formatDuration, formatRFC3339, parseRFC3339 } from './time.js';
import { T, type Type } from './types.js';
import {
  CelError,
  CelMap,
  Duration,
  LiteralMap,
  MAX_INT64,
  MAX_UINT64,
  MIN_INT64,
  Optional,
  Timestamp,
  TypeValue,
  UInt,
  actualSize,
  celCompare,
  celEquals,
  codePointLength,
  formatDouble,
  getListSemantics,
  isObjectValue,
  isZeroValue,
  mapListKey,
  setListSemantics,
  typeNameOf,
  type Val,
  type Value,
} from './values.js';

export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

export const A = T.param('A');
export const B = T.param('B');
export const K = T.param('K');
export const V = T.param('V');

const INT_OVERFLOW = 'integer overflow';
const UINT_OVERFLOW = 'unsigned integer overflow';

export const traversalCost = (n: number): number => Math.ceil(n * STRING_TRAVERSAL_COST_FACTOR);

export function rangeOf(n: number): Range {
  return { min: n, max: n };
}

export function mulRange(a: Range, b: Range): Range {
  return { min: satMul(a.min, b.min), max: satMul(a.max, b.max) };
}

export function addRange(a: Range, b: Range): Range {
  return { min: Math.min(a.min + b.min, Number.MAX_SAFE_INTEGER), max: Math.min(a.max + b.max, Number.MAX_SAFE_INTEGER) };
}

export function factorRange(a: Range, f: number): Range {
  return { min: Math.ceil(a.min * f), max: Math.min(Math.ceil(a.max * f), Number.MAX_SAFE_INTEGER) };
}

function satMul(a: number, b: number): number {
  const r = a * b;
  return r > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : r;
}

function checkInt(v: bigint): Val {
  return v > MAX_INT64 || v < MIN_INT64 ? new CelError(INT_OVERFLOW) : v;
}

function checkUint(v: bigint): Val {
  return v > MAX_UINT64 || v < 0n ? new CelError(UINT_OVERFLOW) : new UInt(v);
}

/** `int(double)` and friends: Go's checked float64 → int64 conversion. */
export function doubleToInt(d: number): Val {
  if (!(d > -9223372036854775808 && d < 9223372036854775807) || Number.isNaN(d)) return new CelError(INT_OVERFLOW);
  return BigInt(Math.trunc(d));
}

function doubleToUint(d: number): Val {
  if (!(d >= 0 && d < 18446744073709551615) || Number.isNaN(d)) return new CelError(UINT_OVERFLOW);
  return new UInt(BigInt(Math.trunc(d)));
}

/** Go's strconv.ParseFloat(s, 64) (decimal, hexadecimal, inf/infinity/nan; underscores only after a base prefix). */
export function parseGoFloat(s: string): number | undefined {
  const t = s.toLowerCase();
  const sign = t.startsWith('-') ? -1 : 1;
  const body = t.replace(/^[+-]/, '');
  if (body === 'inf' || body === 'infinity') return sign * Infinity;
  if (body === 'nan') return NaN;
  if (/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(body)) return sign * Number(body);
  if (/^0x[0-9a-f_]*\.?[0-9a-f_]*(p[+-]?\d+)?$/.test(body)) {
    const m = /^0x([0-9a-f_]*)\.?([0-9a-f_]*)(?:p([+-]?\d+))?$/.exec(body.replace(/_/g, ''))!;
    if (!m[1] && !m[2]) return undefined;
    const mant = parseInt((m[1] || '0') + (m[2] || ''), 16);
    return sign * mant * 2 ** (Number(m[3] ?? 0) - 4 * (m[2]?.length ?? 0));
  }
  return undefined;
}

function stringToInt(s: string): Val {
  if (!/^[+-]?\d+$/.test(s)) return new CelError(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > MAX_INT64 || v < MIN_INT64) return new CelError(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
  return v;
}

function stringToUint(s: string): Val {
  if (!/^\+?\d+$/.test(s)) return new CelError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > MAX_UINT64) return new CelError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`);
  return new UInt(v);
}

const BOOL_STRINGS: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

function bytesToString(b: Uint8Array): Val {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return new CelError('invalid UTF-8 in bytes, cannot convert to string');
  }
}

function timestampOf(nanos: bigint, offset = 0): Val {
  const t = Timestamp.fromEpochNanos(nanos, offset);
  return t.inRange() ? t : new CelError('timestamp overflow');
}

function durationOf(nanos: bigint): Val {
  return nanos > MAX_INT64 || nanos < MIN_INT64 ? new CelError('duration overflow') : new Duration(nanos);
}

/** The concatenation of two lists, with Kubernetes' set/map list semantics taken from the left operand. */
export function concatLists(a: Value[], b: Value[]): Value[] {
  const sem = getListSemantics(a);
  if (!sem) return [...a, ...b];
  if (sem.type === 'set') {
    const out = [...a];
    for (const y of b) if (!out.some((x) => celEquals(x, y))) out.push(y);
    return setListSemantics(out, sem);
  }
  const out = [...a];
  const index = new Map<string, number>();
  out.forEach((el, i) => {
    const k = mapListKey(el, sem.keys);
    if (k !== undefined) index.set(k, i);
  });
  for (const el of b) {
    const k = mapListKey(el, sem.keys);
    const at = k === undefined ? undefined : index.get(k);
    if (at !== undefined) out[at] = el;
    else {
      if (k !== undefined) index.set(k, out.length);
      out.push(el);
    }
  }
  return setListSemantics(out, sem);
}

/** Cost of an equality/ordering comparison: ceil(min(size) * 0.1). */
function compareCost(args: Value[]): number {
  return traversalCost(Math.min(actualSize(args[0]), actualSize(args[1])));
}

function compareEstimate(args: EstimateArg[]): { cost: Range } {
  const smallestMax = Math.min(args[0].size.max, args[1].size.max);
  return { cost: { min: smallestMax > 0 ? 1 : 0, max: traversalCost(smallestMax) } };
}

const ORDERED: [string, Type][] = [
  ['bool', T.bool],
  ['int64', T.int],
  ['uint64', T.uint],
  ['double', T.double],
  ['string', T.string],
  ['bytes', T.bytes],
  ['timestamp', T.timestamp],
  ['duration', T.duration],
];

const CROSS_NUMERIC: [string, Type, string, Type][] = [
  ['int64', T.int, 'uint64', T.uint],
  ['int64', T.int, 'double', T.double],
  ['uint64', T.uint, 'int64', T.int],
  ['uint64', T.uint, 'double', T.double],
  ['double', T.double, 'int64', T.int],
  ['double', T.double, 'uint64', T.uint],
];

function orderOverloads(op: string, id: string, test: (c: number) => boolean): Overload[] {
  const impl = (args: Value[]): Val => {
    const c = celCompare(args[0], args[1]);
    return c === undefined ? noSuchOverload() : test(c);
  };
  const out: Overload[] = [];
  for (const [n, t] of ORDERED) {
    const strLike = t === T.string || t === T.bytes;
    out.push(global(`${id}_${n}`, [t, t], T.bool, impl, strLike ? { cost: compareCost, estimate: compareEstimate } : {}));
  }
  for (const [n1, t1, n2, t2] of CROSS_NUMERIC) out.push(global(`${id}_${n1}_${n2}`, [t1, t2], T.bool, impl));
  void op;
  return out;
}

function fieldOrKey(container: Value, key: Value): Val | undefined {
  if (container instanceof CelMap) return container.get(key);
  if (isObjectValue(container)) return typeof key === 'string' ? container.field(key) : new CelError('no such overload');
  return new CelError('no such overload');
}

/** `list[index]` with cel-go's index coercion (int, uint, or an integral double for dyn values). */
export function listIndex(list: Value[], index: Value): Val {
  let i: bigint;
  if (typeof index === 'bigint') i = index;
  else if (index instanceof UInt) i = index.v;
  else if (typeof index === 'number') {
    if (!Number.isInteger(index)) return new CelError(`unsupported index value ${formatDouble(index)} in list`);
    i = BigInt(index);
  } else return new CelError(`unsupported index type '${typeNameOf(index)}' in list`);
  // cel-go indexes through attribute qualifiers (missingIndex), as Kubernetes' data lists do
  if (i < 0n || i >= BigInt(list.length)) return new CelError(`index out of bounds: ${i}`);
  return list[Number(i)];
}

/** `map[key]`, with numeric keys matching across int/uint/double. */
export function mapIndex(m: CelMap, key: Value): Val {
  const v = m.get(key);
  if (v instanceof CelError) return v;
  if (v === undefined) return new CelError(`no such key: ${keyText(key)}`);
  return v;
}

function keyText(k: Value): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number') return formatDouble(k);
  if (k instanceof UInt) return k.v.toString();
  return String(k);
}

/** An optional field or index qualifier is charged only when the value is present (cel-go's QualifyIfPresent). */
const OPT_QUALIFIER_COST = { cost: (_a: Value[], r: Val) => (r === Optional.NONE ? 0 : 1) };

function optionalField(container: Value, key: Value): Val {
  if (container instanceof Optional) {
    if (!container.hasValue) return Optional.NONE;
    container = container.value!;
  }
  if (Array.isArray(container)) {
    const v = listIndex(container, key);
    return v instanceof CelError ? (/out of range|out of bounds/.test(v.message) ? Optional.NONE : v) : Optional.of(v);
  }
  const v = fieldOrKey(container, key);
  if (v instanceof CelError) return v;
  return v === undefined ? Optional.NONE : Optional.of(v);
}

function tsAccessor(name: string, id: string, get: (c: Exclude<ReturnType<typeof civilTime>, string>, t: Timestamp) => number): Overload[] {
  const run = (t: Timestamp, zone?: string): Val => {
    const c = civilTime(t, zone);
    return typeof c === 'string' ? new CelError(c) : BigInt(get(c, t));
  };
  return [
    member(`timestamp_to_${id}`, [T.timestamp], T.int, (a) => run(a[0] as Timestamp)),
    member(`timestamp_to_${id}_with_tz`, [T.timestamp, T.string], T.int, (a) => run(a[0] as Timestamp, a[1] as string)),
  ];
  void name;
}

function strCost(args: Value[]): number {
  return traversalCost(actualSize(args[0]));
}

/** Registers the standard library. */
export function registerStdlib(r: FunctionRegistry): void {
  // logical operators (evaluated specially by the interpreter; declared for the checker)
  r.add('_&&_', global('logical_and', [T.bool, T.bool], T.bool, (a) => (a[0] as boolean) && (a[1] as boolean)));
  r.add('_||_', global('logical_or', [T.bool, T.bool], T.bool, (a) => (a[0] as boolean) || (a[1] as boolean)));
  r.add('!_', global('logical_not', [T.bool], T.bool, (a) => !(a[0] as boolean)));
  r.add('@not_strictly_false', global('not_strictly_false', [T.bool], T.bool, (a) => a[0] as boolean));
  r.add('_?_:_', global('conditional', [T.bool, A, A], A, (a) => (a[0] ? a[1] : a[2])));

  // equality
  r.add('_==_', global('equals', [A, A], T.bool, (a) => celEquals(a[0], a[1]), { cost: compareCost, estimate: compareEstimate }));
  r.add('_!=_', global('not_equals', [A, A], T.bool, (a) => !celEquals(a[0], a[1]), { cost: compareCost, estimate: compareEstimate }));

  // ordering
  r.add('_<_', ...orderOverloads('<', 'less', (c) => c < 0));
  r.add('_<=_', ...orderOverloads('<=', 'less_equals', (c) => c <= 0));
  r.add('_>_', ...orderOverloads('>', 'greater', (c) => c > 0));
  r.add('_>=_', ...orderOverloads('>=', 'greater_equals', (c) => c >= 0));

  // arithmetic
  r.add(
    '_+_',
    global('add_int64', [T.int, T.int], T.int, (a) => checkInt((a[0] as bigint) + (a[1] as bigint))),
    global('add_uint64', [T.uint, T.uint], T.uint, (a) => checkUint((a[0] as UInt).v + (a[1] as UInt).v)),
    global('add_double', [T.double, T.double], T.double, (a) => (a[0] as number) + (a[1] as number)),
    global('add_string', [T.string, T.string], T.string, (a) => (a[0] as string) + (a[1] as string), {
      cost: (a) => traversalCost(actualSize(a[0]) + actualSize(a[1])),
      estimate: (a) => ({ cost: factorRange(addRange(a[0].size, a[1].size), STRING_TRAVERSAL_COST_FACTOR), resultSize: addRange(a[0].size, a[1].size) }),
    }),
    global(
      'add_bytes',
      [T.bytes, T.bytes],
      T.bytes,
      (a) => {
        const x = a[0] as Uint8Array;
        const y = a[1] as Uint8Array;
        const out = new Uint8Array(x.length + y.length);
        out.set(x);
        out.set(y, x.length);
        return out;
      },
      {
        cost: (a) => traversalCost(actualSize(a[0]) + actualSize(a[1])),
        estimate: (a) => ({ cost: factorRange(addRange(a[0].size, a[1].size), STRING_TRAVERSAL_COST_FACTOR), resultSize: addRange(a[0].size, a[1].size) }),
      },
    ),
    global('add_list', [T.list(A), T.list(A)], T.list(A), (a) => concatLists(a[0] as Value[], a[1] as Value[]), {
      estimate: (a) => ({ cost: rangeOf(1), resultSize: addRange(a[0].size, a[1].size) }),
    }),
    global('add_timestamp_duration', [T.timestamp, T.duration], T.timestamp, (a) => timestampOf((a[0] as Timestamp).epochNanos + (a[1] as Duration).nanos, (a[0] as Timestamp).offset)),
    global('add_duration_timestamp', [T.duration, T.timestamp], T.timestamp, (a) => timestampOf((a[1] as Timestamp).epochNanos + (a[0] as Duration).nanos, (a[1] as Timestamp).offset)),
    global('add_duration_duration', [T.duration, T.duration], T.duration, (a) => durationOf((a[0] as Duration).nanos + (a[1] as Duration).nanos)),
  );
  r.add(
    '_-_',
    global('subtract_int64', [T.int, T.int], T.int, (a) => checkInt((a[0] as bigint) - (a[1] as bigint))),
    global('subtract_uint64', [T.uint, T.uint], T.uint, (a) => checkUint((a[0] as UInt).v - (a[1] as UInt).v)),
    global('subtract_double', [T.double, T.double], T.double, (a) => (a[0] as number) - (a[1] as number)),
    global('subtract_timestamp_timestamp', [T.timestamp, T.timestamp], T.duration, (a) => durationOf((a[0] as Timestamp).epochNanos - (a[1] as Timestamp).epochNanos)),
    global('subtract_timestamp_duration', [T.timestamp, T.duration], T.timestamp, (a) => timestampOf((a[0] as Timestamp).epochNanos - (a[1] as Duration).nanos, (a[0] as Timestamp).offset)),
    global('subtract_duration_duration', [T.duration, T.duration], T.duration, (a) => durationOf((a[0] as Duration).nanos - (a[1] as Duration).nanos)),
  );
  r.add(
    '_*_',
    global('multiply_int64', [T.int, T.int], T.int, (a) => checkInt((a[0] as bigint) * (a[1] as bigint))),
    global('multiply_uint64', [T.uint, T.uint], T.uint, (a) => checkUint((a[0] as UInt).v * (a[1] as UInt).v)),
    global('multiply_double', [T.double, T.double], T.double, (a) => (a[0] as number) * (a[1] as number)),
  );
  r.add(
    '_/_',
    global('divide_int64', [T.int, T.int], T.int, (a) => {
      const [x, y] = a as bigint[];
      if (y === 0n) return new CelError('division by zero');
      if (x === MIN_INT64 && y === -1n) return new CelError(INT_OVERFLOW);
      return x / y;
    }),
    global('divide_uint64', [T.uint, T.uint], T.uint, (a) => {
      const y = (a[1] as UInt).v;
      if (y === 0n) return new CelError('division by zero');
      return new UInt((a[0] as UInt).v / y);
    }),
    global('divide_double', [T.double, T.double], T.double, (a) => (a[0] as number) / (a[1] as number)),
  );
  r.add(
    '_%_',
    global('modulo_int64', [T.int, T.int], T.int, (a) => {
      const [x, y] = a as bigint[];
      if (y === 0n) return new CelError('modulus by zero');
      if (x === MIN_INT64 && y === -1n) return new CelError(INT_OVERFLOW);
      return x % y;
    }),
    global('modulo_uint64', [T.uint, T.uint], T.uint, (a) => {
      const y = (a[1] as UInt).v;
      if (y === 0n) return new CelError('modulus by zero');
      return new UInt((a[0] as UInt).v % y);
    }),
  );
  r.add(
    '-_',
    global('negate_int64', [T.int], T.int, (a) => checkInt(-(a[0] as bigint))),
    global('negate_double', [T.double], T.double, (a) => -(a[0] as number)),
  );

  // indexing and membership
  r.add(
    '_[_]',
    global('index_list', [T.list(A), T.int], A, (a) => listIndex(a[0] as Value[], a[1])),
    global('index_map', [T.map(K, V), K], V, (a) => mapIndex(a[0] as CelMap, a[1])),
    global('optional_list_index_int', [T.optional(T.list(V)), T.int], T.optional(V), (a) => optionalField(a[0], a[1]), OPT_QUALIFIER_COST),
    global('optional_map_index_value', [T.optional(T.map(K, V)), K], T.optional(V), (a) => optionalField(a[0], a[1]), OPT_QUALIFIER_COST),
  );
  r.add(
    '_[?_]',
    global('list_optindex_optional_int', [T.list(V), T.int], T.optional(V), (a) => optionalField(a[0], a[1]), OPT_QUALIFIER_COST),
    global('optional_list_optindex_optional_int', [T.optional(T.list(V)), T.int], T.optional(V), (a) => optionalField(a[0], a[1]), OPT_QUALIFIER_COST),
    global('map_optindex_optional_value', [T.map(K, V), K], T.optional(V), (a) => optionalField(a[0], a[1]), OPT_QUALIFIER_COST),
    global('optional_map_optindex_optional_value', [T.optional(T.map(K, V)), K], T.optional(V), (a) => optionalField(a[0], a[1]), OPT_QUALIFIER_COST),
  );
  r.add('_?._', global('select_optional_field', [T.dyn, T.string], T.optional(T.dyn), (a) => optionalField(a[0], a[1]), OPT_QUALIFIER_COST));
  r.add(
    '@in',
    global('in_list', [A, T.list(A)], T.bool, (a) => (a[1] as Value[]).some((x) => celEquals(a[0], x)), {
      cost: (a) => actualSize(a[1]),
      estimate: (a) => ({ cost: a[1].size }),
    }),
    global('in_map', [K, T.map(K, V)], T.bool, (a) => {
      const v = (a[1] as CelMap).get(a[0]);
      return v !== undefined && !(v instanceof CelError);
    }),
  );

  // size
  const size = (v: Value): bigint => BigInt(actualSize(v));
  r.add(
    'size',
    global('size_string', [T.string], T.int, (a) => size(a[0])),
    global('size_bytes', [T.bytes], T.int, (a) => size(a[0])),
    global('size_list', [T.list(A)], T.int, (a) => size(a[0])),
    global('size_map', [T.map(K, V)], T.int, (a) => size(a[0])),
    member('string_size', [T.string], T.int, (a) => size(a[0])),
    member('bytes_size', [T.bytes], T.int, (a) => size(a[0])),
    member('list_size', [T.list(A)], T.int, (a) => size(a[0])),
    member('map_size', [T.map(K, V)], T.int, (a) => size(a[0])),
  );

  // type conversions
  r.add('type', global('type', [A], T.type(A), (a) => new TypeValue(runtimeTypeName(a[0]))));
  r.add('dyn', global('to_dyn', [A], T.dyn, (a) => a[0]));
  r.add(
    'int',
    global('int64_to_int64', [T.int], T.int, (a) => a[0]),
    global('uint64_to_int64', [T.uint], T.int, (a) => checkInt((a[0] as UInt).v)),
    global('double_to_int64', [T.double], T.int, (a) => doubleToInt(a[0] as number)),
    global('string_to_int64', [T.string], T.int, (a) => stringToInt(a[0] as string)),
    global('timestamp_to_int64', [T.timestamp], T.int, (a) => (a[0] as Timestamp).seconds),
  );
  r.add(
    'uint',
    global('uint64_to_uint64', [T.uint], T.uint, (a) => a[0]),
    global('int64_to_uint64', [T.int], T.uint, (a) => checkUint(a[0] as bigint)),
    global('double_to_uint64', [T.double], T.uint, (a) => doubleToUint(a[0] as number)),
    global('string_to_uint64', [T.string], T.uint, (a) => stringToUint(a[0] as string)),
  );
  r.add(
    'double',
    global('double_to_double', [T.double], T.double, (a) => a[0]),
    global('int64_to_double', [T.int], T.double, (a) => Number(a[0] as bigint)),
    global('uint64_to_double', [T.uint], T.double, (a) => Number((a[0] as UInt).v)),
    global('string_to_double', [T.string], T.double, (a) => {
      const d = parseGoFloat(a[0] as string);
      return d === undefined ? new CelError(`strconv.ParseFloat: parsing ${JSON.stringify(a[0])}: invalid syntax`) : d;
    }),
  );
  r.add(
    'string',
    global('string_to_string', [T.string], T.string, (a) => a[0]),
    global('int64_to_string', [T.int], T.string, (a) => (a[0] as bigint).toString()),
    global('uint64_to_string', [T.uint], T.string, (a) => (a[0] as UInt).v.toString()),
    global('double_to_string', [T.double], T.string, (a) => formatDouble(a[0] as number)),
    global('bytes_to_string', [T.bytes], T.string, (a) => bytesToString(a[0] as Uint8Array), {
      estimate: (a) => ({ cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: Math.floor(a[0].size.min / 4), max: a[0].size.max } }),
    }),
    global('bool_to_string', [T.bool], T.string, (a) => String(a[0])),
    global('timestamp_to_string', [T.timestamp], T.string, (a) => formatRFC3339(a[0] as Timestamp)),
    global('duration_to_string', [T.duration], T.string, (a) => formatDuration(a[0] as Duration)),
  );
  r.add(
    'bytes',
    global('bytes_to_bytes', [T.bytes], T.bytes, (a) => a[0]),
    global('string_to_bytes', [T.string], T.bytes, (a) => new TextEncoder().encode(a[0] as string), {
      estimate: (a) => ({ cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: a[0].size.min, max: a[0].size.max * 4 } }),
    }),
  );
  r.add(
    'bool',
    global('bool_to_bool', [T.bool], T.bool, (a) => a[0]),
    global('string_to_bool', [T.string], T.bool, (a) => {
      const b = BOOL_STRINGS[a[0] as string];
      return b === undefined ? new CelError(`strconv.ParseBool: parsing ${JSON.stringify(a[0])}: invalid syntax`) : b;
    }),
  );
  r.add(
    'timestamp',
    global('timestamp_to_timestamp', [T.timestamp], T.timestamp, (a) => a[0]),
    global('string_to_timestamp', [T.string], T.timestamp, (a) => {
      const t = parseRFC3339(a[0] as string);
      if (!t) return new CelError(`parsing time ${JSON.stringify(a[0])} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(a[0])} as "2006"`);
      return t.inRange() ? t : new CelError('timestamp overflow');
    }),
    global('int64_to_timestamp', [T.int], T.timestamp, (a) => timestampOf((a[0] as bigint) * 1_000_000_000n)),
  );
  r.add(
    'duration',
    global('duration_to_duration', [T.duration], T.duration, (a) => a[0]),
    global('string_to_duration', [T.string], T.duration, (a) => {
      const n = parseGoDuration(a[0] as string);
      return n === undefined ? new CelError(`time: invalid duration ${JSON.stringify(a[0])}`) : new Duration(n);
    }),
  );

  // strings
  r.add(
    'contains',
    member('contains_string', [T.string, T.string], T.bool, (a) => (a[0] as string).includes(a[1] as string), {
      cost: (a) => traversalCost(actualSize(a[0])) * traversalCost(actualSize(a[1])),
      estimate: (a) => ({ cost: mulRange(factorRange(a[0].size, 0.1), factorRange(a[1].size, 0.1)) }),
    }),
  );
  r.add(
    'startsWith',
    member('starts_with_string', [T.string, T.string], T.bool, (a) => (a[0] as string).startsWith(a[1] as string), {
      cost: strCost,
      estimate: (a) => ({ cost: factorRange(a[1].size, STRING_TRAVERSAL_COST_FACTOR) }),
    }),
  );
  r.add(
    'endsWith',
    member('ends_with_string', [T.string, T.string], T.bool, (a) => (a[0] as string).endsWith(a[1] as string), {
      cost: strCost,
      estimate: (a) => ({ cost: factorRange(a[1].size, STRING_TRAVERSAL_COST_FACTOR) }),
    }),
  );
  const matches = (a: Value[]): Val => {
    const re = compileRE2(a[1] as string);
    return typeof re === 'string' ? new CelError(re) : re2Test(re, a[0] as string);
  };
  const regexCost = (a: Value[]): number => traversalCost(1 + actualSize(a[0])) * Math.ceil(actualSize(a[1]) * REGEX_STRING_LENGTH_COST_FACTOR);
  const regexEstimate = (a: EstimateArg[]): { cost: Range } => ({
    cost: mulRange(factorRange(addRange(a[0].size, rangeOf(1)), STRING_TRAVERSAL_COST_FACTOR), factorRange(a[1].size, REGEX_STRING_LENGTH_COST_FACTOR)),
  });
  // a constant pattern is compiled, and its cost factor computed, once when the program is planned
  const matchesSpecialize = (c: (Value | undefined)[]): Pick<Overload, 'impl' | 'cost'> | undefined => {
    const re = constantRegex(c[1]);
    if (!re) return undefined;
    const tester = re2Tester(re);
    const factor = Math.ceil(actualSize(c[1] as string) * REGEX_STRING_LENGTH_COST_FACTOR);
    return { impl: (a) => tester.test(a[0] as string), cost: (a) => traversalCost(1 + actualSize(a[0])) * factor };
  };
  r.add(
    'matches',
    global('matches', [T.string, T.string], T.bool, matches, { cost: regexCost, estimate: regexEstimate, specialize: matchesSpecialize }),
    member('matches_string', [T.string, T.string], T.bool, matches, { cost: regexCost, estimate: regexEstimate, specialize: matchesSpecialize }),
  );

  // timestamps and durations
  r.add('getFullYear', ...tsAccessor('getFullYear', 'year', (c) => c.year));
  r.add('getMonth', ...tsAccessor('getMonth', 'month', (c) => c.month - 1));
  r.add('getDayOfYear', ...tsAccessor('getDayOfYear', 'day_of_year', (c) => c.yearDay));
  r.add('getDayOfMonth', ...tsAccessor('getDayOfMonth', 'day_of_month_zero_based', (c) => c.day - 1));
  r.add('getDate', ...tsAccessor('getDate', 'day_of_month_one_based', (c) => c.day));
  r.add('getDayOfWeek', ...tsAccessor('getDayOfWeek', 'day_of_week', (c) => c.weekday));
  r.add(
    'getHours',
    ...tsAccessor('getHours', 'hours', (c) => c.hour),
    member('duration_to_hours', [T.duration], T.int, (a) => (a[0] as Duration).nanos / 3_600_000_000_000n),
  );
  r.add(
    'getMinutes',
    ...tsAccessor('getMinutes', 'minutes', (c) => c.minute),
    member('duration_to_minutes', [T.duration], T.int, (a) => (a[0] as Duration).nanos / 60_000_000_000n),
  );
  r.add(
    'getSeconds',
    ...tsAccessor('getSeconds', 'seconds', (c) => c.second),
    member('duration_to_seconds', [T.duration], T.int, (a) => (a[0] as Duration).nanos / 1_000_000_000n),
  );
  r.add(
    'getMilliseconds',
    ...tsAccessor('getMilliseconds', 'milliseconds', (_c, t) => Math.floor(t.nanos / 1_000_000)),
    // cel-go returns the whole duration in milliseconds (the conformance suite expects the milliseconds component)
    member('duration_to_milliseconds', [T.duration], T.int, (a) => (a[0] as Duration).nanos / 1_000_000n),
  );

  // optionals
  r.add('optional.of', global('optional_of', [A], T.optional(A), (a) => Optional.of(a[0])));
  r.add('optional.ofNonZeroValue', global('optional_ofNonZeroValue', [A], T.optional(A), (a) => (isZeroValue(a[0]) ? Optional.NONE : Optional.of(a[0]))));
  r.add('optional.none', global('optional_none', [], T.optional(A), () => Optional.NONE));
  r.add('hasValue', member('optional_hasValue', [T.optional(A)], T.bool, (a) => (a[0] as Optional).hasValue));
  r.add(
    'value',
    member('optional_value', [T.optional(A)], A, (a) => {
      const o = a[0] as Optional;
      return o.hasValue ? o.value! : new CelError('optional.none() dereference');
    }),
  );
  r.add('or', member('optional_or_optional', [T.optional(A), T.optional(A)], T.optional(A), (a) => ((a[0] as Optional).hasValue ? a[0] : a[1])));
  r.add('orValue', member('optional_orValue_value', [T.optional(A), A], A, (a) => ((a[0] as Optional).hasValue ? (a[0] as Optional).value! : a[1])));

  // two-variable comprehension support (cel-go ext: cel.@mapInsert)
  r.add(
    'cel.@mapInsert',
    global('@mapInsert_map_key_value', [T.map(K, V), K, V], T.map(K, V), (a) => mapInsert(a[0] as CelMap, [[a[1], a[2]]])),
    global('@mapInsert_map_map', [T.map(K, V), T.map(K, V)], T.map(K, V), (a) => {
      const other = a[1] as CelMap;
      return mapInsert(
        a[0] as CelMap,
        other.keys().map((k) => [k, other.get(k) as Value]),
      );
    }),
  );
}

function mapInsert(m: CelMap, entries: [Value, Value][]): Val {
  const out = new LiteralMap();
  for (const k of m.keys()) out.set(k, m.get(k) as Value);
  for (const [k, v] of entries) {
    if (out.hasKey(k)) return new CelError(`insert failed: key ${keyText(k)} already exists`);
    if (!out.set(k, v)) return new CelError(`unsupported key type: ${typeNameOf(k)}`);
  }
  return out;
}

/** The name `type(v)` returns. */
export function runtimeTypeName(v: Value): string {
  return typeNameOf(v);
}

/** Whether a function is a type conversion that cel-go folds when its argument is a literal. */
export const TYPE_CONVERSIONS = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration', 'dyn', 'type']);

export { codePointLength };
