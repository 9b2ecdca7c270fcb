/**
 * CEL runtime values. `int` is a bigint (int64), `uint` a {@link UInt}, `double` a number, `bytes` a Uint8Array,
 * `list` a JS array, `map` a {@link CelMap}; timestamps and durations keep nanosecond precision. Errors are values
 * too ({@link CelError}), as in cel-go, so that `&&`, `||` and the comprehension macros can absorb them.
 */
import { goCompare } from '../go/strings.js';
import { goFloat } from '../go/go-values.js';

export const MAX_INT64 = (1n << 63n) - 1n;
export const MIN_INT64 = -(1n << 63n);
export const MAX_UINT64 = (1n << 64n) - 1n;

export class UInt {
  constructor(readonly v: bigint) {}
  toString(): string {
    return this.v.toString();
  }
}

/** Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z since the epoch: CEL's timestamp range. */
export const MIN_TIMESTAMP_SECONDS = -62135596800n;
export const MAX_TIMESTAMP_SECONDS = 253402300799n;

export class Timestamp {
  /**
   * `seconds` since the Unix epoch (UTC) and `nanos` in [0, 1e9); `offset` is the UTC offset in seconds the time was
   * written with (a Go time.Time keeps its zone, which string() shows).
   */
  constructor(
    readonly seconds: bigint,
    readonly nanos: number,
    readonly offset = 0,
  ) {}

  /** Total nanoseconds since the epoch. */
  get epochNanos(): bigint {
    return this.seconds * 1_000_000_000n + BigInt(this.nanos);
  }

  static fromEpochNanos(n: bigint, offset = 0): Timestamp {
    let s = n / 1_000_000_000n;
    let ns = n % 1_000_000_000n;
    if (ns < 0n) {
      ns += 1_000_000_000n;
      s -= 1n;
    }
    return new Timestamp(s, Number(ns), offset);
  }

  inRange(): boolean {
    return this.seconds >= MIN_TIMESTAMP_SECONDS && this.seconds <= MAX_TIMESTAMP_SECONDS;
  }
}

export class Duration {
  /** A Go time.Duration: int64 nanoseconds. */
  constructor(readonly nanos: bigint) {}
}

/** A CEL type as a runtime value (`type(1) == int`). */
export class TypeValue {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

export class Optional {
  static readonly NONE = new Optional(undefined);
  private constructor(readonly value: Value | undefined) {}
  static of(v: Value): Optional {
    return new Optional(v);
  }
  get hasValue(): boolean {
    return this.value !== undefined;
  }
}

/** A CEL evaluation error (cel-go's types.Err): the message is cel-go's text. */
export class CelError {
  constructor(
    readonly message: string,
    /** Set for errors that must abort evaluation (cost limit), which no operator may absorb. */
    readonly fatal = false,
  ) {}
  toString(): string {
    return this.message;
  }
}

/** Raised (as an exception) when the runtime cost limit is exceeded; never absorbed. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** Opaque library values (Quantity, URL, IP, CIDR, Semver, Format). */
export abstract class OpaqueValue {
  abstract readonly typeName: string;
  abstract equals(other: OpaqueValue): boolean;
}

/** An object whose fields are declared by a schema (a CEL "message" type). */
export interface ObjectValue {
  readonly isCelObject: true;
  readonly typeName: string;
  /** The field's value or undefined when the field is absent. */
  field(name: string): Value | undefined;
  /** The (escaped) names of the present fields. */
  fieldNames(): string[];
  /** The size cel-go's cost tracker sees (the number of entries of the underlying data). */
  size(): number;
  /** Equality with another object of the same type, when the object compares more than its declared fields. */
  equals?(other: ObjectValue): boolean;
  /** The value of a field by its unescaped property name (map-list keys are property names). */
  propertyField?(property: string): Value | undefined;
}

export function isObjectValue(v: unknown): v is ObjectValue {
  return typeof v === 'object' && v !== null && (v as { isCelObject?: unknown }).isCelObject === true;
}

/** A CEL map. Keys are int, uint, bool or string; numeric keys compare by value across int/uint/double. */
export abstract class CelMap {
  abstract readonly size: number;
  /** The value for `key`, undefined when absent (an error when the key type is not supported). */
  abstract get(key: Value): Value | undefined | CelError;
  /** Keys in iteration order. */
  abstract keys(): Value[];
  has(key: Value): boolean {
    const v = this.get(key);
    return v !== undefined && !(v instanceof CelError);
  }
}

/** The normalized key of a map entry, so that `1`, `1u` and `1.0` address the same entry. */
export function mapKey(k: Value): string | undefined {
  if (typeof k === 'string') return 's' + k;
  if (typeof k === 'bigint') return 'n' + k.toString();
  if (k instanceof UInt) return 'n' + k.v.toString();
  if (typeof k === 'boolean') return k ? 'T' : 'F';
  if (typeof k === 'number') {
    if (Number.isInteger(k) && Math.abs(k) < 2 ** 64) return 'n' + BigInt(k).toString();
    return 'd' + String(k);
  }
  return undefined;
}

/** A map built by a literal or a function: insertion-ordered, keyed by {@link mapKey}. */
export class LiteralMap extends CelMap {
  private readonly entries = new Map<string, [Value, Value]>();

  get size(): number {
    return this.entries.size;
  }

  /** Sets a key; returns false when the key type is unsupported. */
  set(k: Value, v: Value): boolean {
    const mk = mapKey(k);
    if (mk === undefined || mk[0] === 'd') return false;
    this.entries.set(mk, [k, v]);
    return true;
  }

  hasKey(k: Value): boolean {
    const mk = mapKey(k);
    return mk !== undefined && this.entries.has(mk);
  }

  get(k: Value): Value | undefined | CelError {
    const mk = mapKey(k);
    if (mk === undefined) return new CelError(`unsupported key type: ${typeNameOf(k)}`);
    return this.entries.get(mk)?.[1];
  }

  keys(): Value[] {
    return [...this.entries.values()].map((e) => e[0]);
  }
}

/** A map over a JSON object with string keys; values are converted on first access. */
export class StringKeyMap extends CelMap {
  /** Converted values that are objects (a primitive is as quick to convert again as to look up). */
  private cache: Map<string, Value> | undefined;
  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly convert: (v: unknown) => Value,
  ) {
    super();
  }
  get size(): number {
    return Object.keys(this.raw).length;
  }
  get(k: Value): Value | undefined | CelError {
    if (typeof k !== 'string') {
      if (mapKey(k) === undefined) return new CelError(`unsupported key type: ${typeNameOf(k)}`);
      return undefined;
    }
    if (!Object.prototype.hasOwnProperty.call(this.raw, k)) return undefined;
    let v = this.cache?.get(k);
    if (v === undefined) {
      v = this.convert(this.raw[k]);
      if (typeof v === 'object' && v !== null) (this.cache ??= new Map()).set(k, v);
    }
    return v;
  }
  keys(): Value[] {
    return Object.keys(this.raw);
  }
}

export type Value =
  | bigint
  | number
  | string
  | boolean
  | null
  | Uint8Array
  | UInt
  | Timestamp
  | Duration
  | TypeValue
  | Optional
  | CelMap
  | ObjectValue
  | OpaqueValue
  | Value[];

/** A value or an error. */
export type Val = Value | CelError;

/** How a list from a schema compares and concatenates (x-kubernetes-list-type). */
export type ListSemantics = { type: 'set' } | { type: 'map'; keys: string[] };

const listSemantics = new WeakMap<readonly Value[], ListSemantics>();

export function setListSemantics(list: Value[], s: ListSemantics): Value[] {
  listSemantics.set(list, s);
  return list;
}

export function getListSemantics(list: readonly Value[]): ListSemantics | undefined {
  return listSemantics.get(list);
}


export function isError(v: unknown): v is CelError {
  return v instanceof CelError;
}

/** The CEL type name of a runtime value (what `type(v)` prints). */
export function typeNameOf(v: Val): string {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      break;
  }
  if (v === null) return 'null_type';
  if (v instanceof UInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof CelMap) return 'map';
  if (v instanceof Timestamp) return 'google.protobuf.Timestamp';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (v instanceof TypeValue) return 'type';
  if (v instanceof Optional) return 'optional_type';
  if (v instanceof OpaqueValue) return v.typeName;
  if (v instanceof CelError) return '*types.Err';
  if (isObjectValue(v)) return v.typeName;
  return 'unknown';
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

/** Number of code points of a string (CEL's string size). */
export function codePointLength(s: string): number {
  // most strings have no surrogate pair: the native scan is quicker than counting
  if (!SURROGATE_PAIR.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The `size()` of a value as the cost tracker sees it (1 for scalars). */
export function actualSize(v: Val): number {
  if (typeof v === 'string') return codePointLength(v);
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof CelMap) return v.size;
  if (isObjectValue(v)) return v.size();
  return 1;
}

function numericEquals(a: Value, b: Value): boolean | undefined {
  const an = toExactNumber(a);
  const bn = toExactNumber(b);
  if (an === undefined || bn === undefined) return undefined;
  return compareNumbers(an, bn) === 0;
}

type ExactNumber = bigint | number;

function toExactNumber(v: Value): ExactNumber | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof UInt) return v.v;
  if (typeof v === 'number') return v;
  return undefined;
}

/** Compares two numbers (int/uint exactly, anything against a double as doubles); NaN when either is NaN. */
export function compareNumbers(a: ExactNumber, b: ExactNumber): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  // an integer against a double compares as doubles, as cel-go does (lossy for |i| > 2^53)
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** CEL heterogeneous equality (cel-go `types.Equal`), with Kubernetes' set/map list semantics from the left side. */
export function celEquals(a: Value, b: Value): boolean {
  if (a === b) return typeof a === 'number' ? !Number.isNaN(a) : true;
  const n = numericEquals(a, b);
  if (n !== undefined) return n;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    const sem = getListSemantics(a);
    if (sem?.type === 'set') return setListEquals(a, b);
    if (sem?.type === 'map') return mapListEquals(a, b, sem.keys);
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!celEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    for (const k of a.keys()) {
      const bv = b.get(k);
      const av = a.get(k);
      if (bv === undefined || bv instanceof CelError || av === undefined || av instanceof CelError) return false;
      if (!celEquals(av, bv)) return false;
    }
    return true;
  }
  if (a instanceof Timestamp) return b instanceof Timestamp && a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Duration) return b instanceof Duration && a.nanos === b.nanos;
  if (a instanceof TypeValue) return b instanceof TypeValue && a.name === b.name;
  if (a instanceof Optional) {
    if (!(b instanceof Optional)) return false;
    if (!a.hasValue || !b.hasValue) return a.hasValue === b.hasValue;
    return celEquals(a.value!, b.value!);
  }
  if (a instanceof OpaqueValue) return b instanceof OpaqueValue && a.typeName === b.typeName && a.equals(b);
  if (isObjectValue(a)) {
    if (!isObjectValue(b) || a.typeName !== b.typeName) return false;
    if (a.equals) return a.equals(b);
    const an = a.fieldNames();
    const bn = b.fieldNames();
    if (an.length !== bn.length) return false;
    for (const f of an) {
      const bv = b.field(f);
      if (bv === undefined || !celEquals(a.field(f)!, bv)) return false;
    }
    return true;
  }
  return false;
}

function setListEquals(a: Value[], b: Value[]): boolean {
  if (a.length !== b.length) return false;
  for (const x of a) if (!b.some((y) => celEquals(x, y))) return false;
  for (const y of b) if (!a.some((x) => celEquals(x, y))) return false;
  return true;
}

/** The key tuple of a map-list element, or undefined when it is not an object with the key fields. */
export function mapListKey(el: Value, keys: string[]): string | undefined {
  const parts: unknown[] = [];
  for (const k of keys) {
    let v: Value | undefined | CelError;
    if (isObjectValue(el)) v = el.propertyField ? el.propertyField(k) : el.field(k);
    else if (el instanceof CelMap) v = el.get(k);
    else return undefined;
    if (v instanceof CelError) return undefined;
    parts.push(v === undefined ? null : typeof v === 'bigint' ? `i${v}` : v instanceof UInt ? `i${v.v}` : v);
  }
  return JSON.stringify(parts);
}

function mapListEquals(a: Value[], b: Value[], keys: string[]): boolean {
  if (a.length !== b.length) return false;
  const index = new Map<string, Value>();
  for (const el of b) {
    const k = mapListKey(el, keys);
    if (k === undefined) return false;
    index.set(k, el);
  }
  for (const el of a) {
    const k = mapListKey(el, keys);
    if (k === undefined) return false;
    const other = index.get(k);
    if (other === undefined || !celEquals(el, other)) return false;
  }
  return true;
}


function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/**
 * Orders two values as CEL's `<` does (with cross-type numeric comparison); undefined when the types do not order
 * (no such overload). NaN compares as NaN (every comparison false).
 */
export function celCompare(a: Value, b: Value): number | undefined {
  const an = toExactNumber(a);
  const bn = toExactNumber(b);
  if (an !== undefined && bn !== undefined) return compareNumbers(an, bn);
  if (typeof a === 'string' && typeof b === 'string') return goCompare(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof Timestamp && b instanceof Timestamp) {
    const d = a.epochNanos - b.epochNanos;
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  if (a instanceof Duration && b instanceof Duration) return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
  if (a instanceof OpaqueValue && b instanceof OpaqueValue && a.typeName === b.typeName) {
    const c = (a as OpaqueValue & { compare?: (o: OpaqueValue) => number }).compare;
    if (c) return c.call(a, b);
  }
  return undefined;
}

/** Go's `%v` of a CEL value, as cel-go error messages print keys and values. */
export function formatValue(v: Val): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return formatDouble(v);
  if (typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  if (v instanceof UInt) return v.v.toString();
  if (v instanceof CelError) return v.message;
  if (v instanceof TypeValue) return v.name;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  if (v instanceof Uint8Array) return `[${[...v].join(' ')}]`;
  if (v instanceof CelMap) return `{${v.keys().map((k) => `${formatValue(k)}: ${formatValue(v.get(k) as Value)}`).join(', ')}}`;
  return typeNameOf(v);
}

/** Go's `%g` of a float64 with the shortest precision (`1e+06`, `0.5`, `+Inf`): cel-go's string(double), Go's `%v`. */
export function formatDouble(x: number): string {
  return goFloat(x);
}

/** Whether a value is its type's zero value (for optional.ofNonZeroValue). */
export function isZeroValue(v: Value): boolean {
  if (v === null || v === false || v === '' || v === 0n || v === 0) return true;
  if (v instanceof UInt) return v.v === 0n;
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length === 0;
  if (v instanceof CelMap) return v.size === 0;
  // Go's zero time.Time is 0001-01-01T00:00:00Z
  if (v instanceof Timestamp) return v.seconds === MIN_TIMESTAMP_SECONDS && v.nanos === 0;
  if (v instanceof Duration) return v.nanos === 0n;
  if (v instanceof Optional) return !v.hasValue;
  if (isObjectValue(v)) return v.fieldNames().length === 0;
  return false;
}
