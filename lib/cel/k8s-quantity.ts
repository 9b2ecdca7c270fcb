/**
 * Kubernetes' quantity library over resource.Quantity semantics: ParseQuantity's grammar, suffixes (decimal SI,
 * binary SI, decimal exponents), rounding up to nano precision, the binary-SI cap, and exact decimal arithmetic.
 */
import { global, member, type EstimateArg, type FunctionRegistry } from './functions.js';
import { STRING_TRAVERSAL_COST_FACTOR, factorRange, traversalCost } from './stdlib.js';
import { T } from './types.js';
import { CelError, MAX_INT64, MIN_INT64, OpaqueValue, actualSize, type Val, type Value } from './values.js';

export const QUANTITY_TYPE = T.opaque('kubernetes.Quantity');

const ERR_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const ERR_NUMERIC = 'unable to parse numeric part of quantity';
const ERR_SUFFIX = "unable to parse quantity's suffix";
const MAX_ALIGN = 10_000;

/** An exact decimal `m × 10^e`, normalized (no trailing zeros in m; zero is 0 × 10^0). */
export class Quantity extends OpaqueValue {
  readonly typeName = 'kubernetes.Quantity';
  readonly m: bigint;
  readonly e: number;

  constructor(m: bigint, e: number) {
    super();
    if (m === 0n) e = 0;
    else while (m % 10n === 0n) {
      m /= 10n;
      e++;
    }
    this.m = m;
    this.e = e;
  }

  get sign(): number {
    return this.m > 0n ? 1 : this.m < 0n ? -1 : 0;
  }

  /** -1, 0 or 1; undefined when the exponents are too far apart to align. */
  compare(other: OpaqueValue): number {
    const o = other as Quantity;
    if (this.sign !== o.sign) return this.sign < o.sign ? -1 : 1;
    if (this.sign === 0) return 0;
    const mag = (q: Quantity): number => digits(q.m) + q.e;
    const ma = mag(this);
    const mb = mag(o);
    if (ma !== mb) return (ma < mb ? -1 : 1) * this.sign;
    const [a, b] = align(this, o)!;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof Quantity && this.compare(other) === 0;
  }
}

function digits(m: bigint): number {
  return (m < 0n ? -m : m).toString().length;
}

/** Both mantissas at the smaller exponent, or undefined when that needs more than MAX_ALIGN extra digits. */
function align(a: Quantity, b: Quantity): [bigint, bigint, number] | undefined {
  const e = Math.min(a.e, b.e);
  if (a.e - e > MAX_ALIGN || b.e - e > MAX_ALIGN) return undefined;
  return [a.m * 10n ** BigInt(a.e - e), b.m * 10n ** BigInt(b.e - e), e];
}

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** resource.ParseQuantity; returns the error text on failure. */
export function parseQuantity(str: string): Quantity | string {
  if (str.length === 0) return ERR_FORMAT;
  if (str === '0') return new Quantity(0n, 0);
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  let num = '';
  let denom = '';
  let suffix = '';
  const isDigit = (c: string): boolean => c >= '0' && c <= '9';
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  num = str.slice(pos, i);
  pos = i;
  if (num === '') num = '0';
  if (pos < end && str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const suffixStart = pos;
  i = pos;
  while (i < end && 'eEinumkKMGTP'.includes(str[i])) i++;
  pos = i;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i < end) return ERR_FORMAT;
  suffix = str.slice(suffixStart, end);

  let base: 10 | 2;
  let exponent: number;
  if (suffix in DECIMAL_SUFFIXES) {
    base = 10;
    exponent = DECIMAL_SUFFIXES[suffix];
  } else if (suffix in BINARY_SUFFIXES) {
    base = 2;
    exponent = BINARY_SUFFIXES[suffix];
  } else if (/^[eE][-+]?\d+$/.test(suffix)) {
    const n = Number(suffix.slice(1));
    if (!Number.isSafeInteger(n) || Math.abs(n) > 2147483647) return ERR_SUFFIX;
    base = 10;
    exponent = n;
  } else return ERR_SUFFIX;

  let m = BigInt(num + denom);
  let e = -denom.length;
  if (base === 10) e += exponent;
  else m <<= BigInt(exponent);
  // round up (away from zero) to nano precision
  if (m !== 0n && e < -9) {
    const shift = -9 - e;
    if (shift > MAX_ALIGN) m = 1n;
    else {
      const d = 10n ** BigInt(shift);
      m = m / d + (m % d === 0n ? 0n : 1n);
    }
    e = -9;
  }
  let q = new Quantity(m, e);
  if (base === 2 && q.compare(new Quantity(MAX_INT64, 0)) > 0) q = new Quantity(MAX_INT64, 0);
  if (!positive) q = new Quantity(-q.m, q.e);
  void ERR_NUMERIC;
  return q;
}

/** Quantity.AsInt64: the exact integer value when it fits an int64. */
function asInt64(q: Quantity): bigint | undefined {
  if (q.e < 0) return undefined;
  if (digits(q.m) + q.e > 20) return undefined;
  const v = q.m * 10n ** BigInt(q.e);
  return v > MAX_INT64 || v < MIN_INT64 ? undefined : v;
}

function approximateFloat(q: Quantity): number {
  return Number(`${q.m}e${q.e}`);
}

function add(a: Quantity, b: Quantity, sign: 1n | -1n): Val {
  const al = align(a, b);
  if (!al) return new CelError('quantity arithmetic out of range');
  return new Quantity(al[0] + sign * al[1], al[2]);
}

export function registerKubernetesQuantity(r: FunctionRegistry): void {
  const strCost = (a: Value[]): number => traversalCost(actualSize(a[0]));
  const strEstimate = (a: EstimateArg[]): { cost: { min: number; max: number } } => ({ cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR) });
  const q = (v: Value): Quantity => v as Quantity;
  r.add(
    'quantity',
    global(
      'string_to_quantity',
      [T.string],
      QUANTITY_TYPE,
      (a) => {
        const p = parseQuantity(a[0] as string);
        return typeof p === 'string' ? new CelError(p) : p;
      },
      { cost: strCost, estimate: strEstimate },
    ),
  );
  r.add('isQuantity', global('is_quantity_string', [T.string], T.bool, (a) => typeof parseQuantity(a[0] as string) !== 'string', { cost: strCost, estimate: strEstimate }));
  r.add(
    'sign',
    global('quantity_sign', [QUANTITY_TYPE], T.int, (a) => BigInt(q(a[0]).sign)),
    member('quantity_sign_member', [QUANTITY_TYPE], T.int, (a) => BigInt(q(a[0]).sign)),
  );
  r.add('isGreaterThan', member('quantity_is_greater_than', [QUANTITY_TYPE, QUANTITY_TYPE], T.bool, (a) => q(a[0]).compare(q(a[1])) === 1));
  r.add('isLessThan', member('quantity_is_less_than', [QUANTITY_TYPE, QUANTITY_TYPE], T.bool, (a) => q(a[0]).compare(q(a[1])) === -1));
  r.add('compareTo', member('quantity_compare_to', [QUANTITY_TYPE, QUANTITY_TYPE], T.int, (a) => BigInt(q(a[0]).compare(q(a[1])))));
  r.add('asApproximateFloat', member('quantity_get_float', [QUANTITY_TYPE], T.double, (a) => approximateFloat(q(a[0]))));
  r.add(
    'asInteger',
    member('quantity_get_int', [QUANTITY_TYPE], T.int, (a) => asInt64(q(a[0])) ?? new CelError('cannot convert value to integer')),
  );
  r.add('isInteger', member('quantity_is_integer', [QUANTITY_TYPE], T.bool, (a) => asInt64(q(a[0])) !== undefined));
  r.add(
    'add',
    member('quantity_add', [QUANTITY_TYPE, QUANTITY_TYPE], QUANTITY_TYPE, (a) => add(q(a[0]), q(a[1]), 1n)),
    member('quantity_add_int', [QUANTITY_TYPE, T.int], QUANTITY_TYPE, (a) => add(q(a[0]), new Quantity(a[1] as bigint, 0), 1n)),
  );
  r.add(
    'sub',
    member('quantity_sub', [QUANTITY_TYPE, QUANTITY_TYPE], QUANTITY_TYPE, (a) => add(q(a[0]), q(a[1]), -1n)),
    member('quantity_sub_int', [QUANTITY_TYPE, T.int], QUANTITY_TYPE, (a) => add(q(a[0]), new Quantity(a[1] as bigint, 0), -1n)),
  );
}
