/**
 * cel-go's strings extension (ext.Strings): charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split,
 * substring, trim, join, reverse, strings.quote and format. Indices count code points; errors read as cel-go's.
 */
import { goCompare } from '../go/strings.js';
import { legacyFormat } from './ext-format-legacy.js';
import { fixedFinite, nonFiniteText, scientificDigits } from './float-digits.js';
import { global, member, type EstimateArg, type FunctionRegistry } from './functions.js';
import { STRING_TRAVERSAL_COST_FACTOR, factorRange, traversalCost } from './stdlib.js';
import { formatDuration, formatRFC3339 } from './time.js';
import { T } from './types.js';
import {
  CelError,
  CelMap,
  Duration,
  Timestamp,
  TypeValue,
  UInt,
  actualSize,
  typeNameOf,
  type Val,
  type Value,
} from './values.js';

const cps = (s: string): string[] => Array.from(s);

function outOfRange(i: bigint | number): CelError {
  return new CelError(`index out of range: ${i}`);
}

function charAt(s: string, i: bigint): Val {
  const r = cps(s);
  if (i < 0n || i > BigInt(r.length)) return outOfRange(i);
  return i === BigInt(r.length) ? '' : r[Number(i)];
}

function indexOf(s: string, sub: string, offset?: bigint): Val {
  if (sub === '') return offset ?? 0n;
  const r = cps(s);
  const sr = cps(sub);
  const off = offset ?? 0n;
  if (off < 0n || off >= BigInt(r.length)) return outOfRange(off);
  for (let i = Number(off); i <= r.length - sr.length; i++) {
    let ok = true;
    for (let j = 0; j < sr.length && ok; j++) ok = r[i + j] === sr[j];
    if (ok) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, offset?: bigint): Val {
  const r = cps(s);
  if (sub === '') return offset ?? BigInt(r.length);
  const sr = cps(sub);
  let off: number;
  if (offset === undefined) off = r.length - sr.length;
  else {
    if (offset < 0n || offset >= BigInt(r.length)) return outOfRange(offset);
    off = Math.min(Number(offset), r.length - sr.length);
  }
  for (let i = off; i >= 0; i--) {
    let ok = true;
    for (let j = 0; j < sr.length && ok; j++) ok = r[i + j] === sr[j];
    if (ok) return BigInt(i);
  }
  return -1n;
}

function substring(s: string, start: bigint, end?: bigint): Val {
  const r = cps(s);
  const l = BigInt(r.length);
  if (end === undefined) {
    if (start < 0n || start > l) return outOfRange(start);
    return r.slice(Number(start)).join('');
  }
  if (start > end) return new CelError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > l) return outOfRange(start);
  if (end < 0n || end > l) return outOfRange(end);
  return r.slice(Number(start), Number(end)).join('');
}

/** Go's strings.Replace(s, old, new, n). */
export function goReplace(s: string, old: string, rep: string, n: bigint): string {
  if (n === 0n || old === rep) return s;
  if (old === '') {
    const r = cps(s);
    const out: string[] = [];
    let count = 0n;
    for (let i = 0; i <= r.length; i++) {
      if (n < 0n || count < n) {
        out.push(rep);
        count++;
      }
      if (i < r.length) out.push(r[i]);
    }
    return out.join('');
  }
  let out = '';
  let i = 0;
  let count = 0n;
  for (;;) {
    if (n >= 0n && count >= n) break;
    const j = s.indexOf(old, i);
    if (j < 0) break;
    out += s.slice(i, j) + rep;
    i = j + old.length;
    count++;
  }
  return out + s.slice(i);
}

/** Go's strings.SplitN(s, sep, n). */
export function goSplit(s: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  if (sep === '') {
    const r = cps(s);
    if (n < 0n || BigInt(r.length) <= n) return r;
    const k = Number(n);
    return [...r.slice(0, k - 1), r.slice(k - 1).join('')];
  }
  const out: string[] = [];
  let i = 0;
  while (n < 0n || BigInt(out.length) < n - 1n) {
    const j = s.indexOf(sep, i);
    if (j < 0) break;
    out.push(s.slice(i, j));
    i = j + sep.length;
  }
  out.push(s.slice(i));
  return out;
}

const WHITE_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Go's strings.TrimSpace (Unicode White_Space). */
export function goTrimSpace(s: string): string {
  return s.replace(WHITE_SPACE, '');
}

function asciiCase(s: string, upper: boolean): string {
  return s.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));
}

/** cel-go's strings.quote: a double-quoted CEL string literal. */
export function quoteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\x07':
        out += '\\a';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\v':
        out += '\\v';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      default:
        out += ch.length === 1 && ch >= '\ud800' && ch <= '\udfff' ? '\ufffd' : ch;
    }
  }
  return out + '"';
}

// ---- format ----

function nonFinite(x: number): string | undefined {
  return nonFiniteText(x, 'Infinity');
}

/** Go's %.{p}f. */
export function formatFixed(x: number, p: number): string {
  return nonFinite(x) ?? fixedFinite(x, p);
}

/** Go's %.{p}e. */
export function formatScientific(x: number, p: number): string {
  const nf = nonFinite(x);
  if (nf) return nf;
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return `${sign}${p ? '0.' + '0'.repeat(p) : '0'}e+00`;
  const { k, q } = scientificDigits(x, p);
  const d = q.toString();
  const mant = p ? `${d[0]}.${d.slice(1)}` : d;
  const ek = Math.abs(k);
  return `${sign}${mant}e${k < 0 ? '-' : '+'}${ek < 10 ? '0' + ek : ek}`;
}

/** A double in the shortest round-tripping decimal form without an exponent. */
function shortestDecimal(x: number): string {
  const nf = nonFinite(x);
  if (nf) return nf;
  const s = String(x);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[2] + (m[3] ?? '');
  const e = Number(m[4]);
  if (e >= 0) return m[1] + (digits.length - 1 <= e ? digits + '0'.repeat(e - digits.length + 1) : `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`);
  return `${m[1]}0.${'0'.repeat(-e - 1)}${digits}`;
}

function formatErr(msg: string): CelError {
  return new CelError(`error during formatting: ${msg}`);
}

/** The `%s` rendering of a value. */
function stringClause(v: Value): string | CelError {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return shortestDecimal(v);
  if (typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  if (v instanceof UInt) return v.v.toString();
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Timestamp) return formatRFC3339(v);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof TypeValue) return v.name;
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const x of v) {
      const s = stringClause(x);
      if (s instanceof CelError) return s;
      parts.push(s);
    }
    return `[${parts.join(', ')}]`;
  }
  if (v instanceof CelMap) {
    const parts: [string, string][] = [];
    for (const k of v.keys()) {
      const ks = stringClause(k);
      const vs = stringClause(v.get(k) as Value);
      if (ks instanceof CelError) return ks;
      if (vs instanceof CelError) return vs;
      parts.push([ks, vs]);
    }
    parts.sort((a, b) => goCompare(a[0], b[0]));
    return `{${parts.map(([k, x]) => `${k}: ${x}`).join(', ')}}`;
  }
  return formatErr(`string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeNameOf(v)}`);
}

function integerOf(v: Value): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof UInt) return v.v;
  return undefined;
}

function radixClause(v: Value, radix: number, upper: boolean): string | CelError {
  const i = integerOf(v);
  if (i !== undefined) {
    const s = (i < 0n ? '-' : '') + (i < 0n ? -i : i).toString(radix);
    return upper ? s.toUpperCase() : s;
  }
  if (radix === 2 && typeof v === 'boolean') return v ? '1' : '0';
  if (radix === 16 && (typeof v === 'string' || v instanceof Uint8Array)) {
    const bytes = typeof v === 'string' ? new TextEncoder().encode(v) : v;
    const s = Buffer.from(bytes).toString('hex');
    return upper ? s.toUpperCase() : s;
  }
  if (radix === 2) return formatErr(`only integers and bools can be formatted as binary, was given ${typeNameOf(v)}`);
  if (radix === 8) return formatErr(`octal clause can only be used on integers, was given ${typeNameOf(v)}`);
  return formatErr(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeNameOf(v)}`);
}

/** cel-go's `string.format(list)`. */
export function formatString(fmt: string, args: Value[]): Val {
  let out = '';
  let argi = 0;
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    if (fmt[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    let j = i + 1;
    let precision: number | undefined;
    if (fmt[j] === '.') {
      const m = /^\.(\d*)/.exec(fmt.slice(j))!;
      precision = m[1] === '' ? 0 : Number(m[1]);
      j += m[0].length;
    }
    const verb = fmt[j];
    if (verb === undefined || !'sdfeboxX'.includes(verb)) {
      return new CelError(`could not parse formatting clause: unrecognized formatting clause "${verb ?? ''}"`);
    }
    if (argi >= args.length) return new CelError(`index ${argi} out of range`);
    const v = args[argi++];
    let s: string | CelError;
    switch (verb) {
      case 's':
        s = stringClause(v);
        break;
      case 'd': {
        const n = integerOf(v);
        if (n !== undefined) s = n.toString();
        else if (typeof v === 'number' && !Number.isFinite(v)) s = nonFinite(v)!;
        else s = formatErr(`decimal clause can only be used on integers, was given ${typeNameOf(v)}`);
        break;
      }
      case 'f':
        s = typeof v === 'number' ? formatFixed(v, precision ?? 6) : formatErr(`fixed-point clause can only be used on doubles, was given ${typeNameOf(v)}`);
        break;
      case 'e':
        s = typeof v === 'number' ? formatScientific(v, precision ?? 6) : formatErr(`scientific clause can only be used on doubles, was given ${typeNameOf(v)}`);
        break;
      case 'b':
        s = radixClause(v, 2, false);
        break;
      case 'o':
        s = radixClause(v, 8, false);
        break;
      default:
        s = radixClause(v, 16, verb === 'X');
    }
    if (s instanceof CelError) return s;
    out += s;
    i = j;
  }
  return out;
}

function strEstimate(a: EstimateArg[]): { cost: { min: number; max: number }; resultSize: { min: number; max: number } } {
  return { cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR), resultSize: a[0].size };
}

/**
 * Registers the strings extension. Version 2 (Kubernetes since 1.29) has everything but `reverse`, which version 3
 * adds; versions below 4 format as cel-go v0.22 did (see ext-format-legacy.ts), later ones as the cel-spec
 * conformance suite expects. The default is the latest.
 */
export function registerStrings(r: FunctionRegistry, opts: { version?: number } = {}): void {
  const version = opts.version ?? Infinity;
  const cost1 = (a: Value[]): number => traversalCost(actualSize(a[0]));
  r.add('charAt', member('string_char_at_int', [T.string, T.int], T.string, (a) => charAt(a[0] as string, a[1] as bigint)));
  r.add(
    'indexOf',
    member('string_index_of_string', [T.string, T.string], T.int, (a) => indexOf(a[0] as string, a[1] as string)),
    member('string_index_of_string_int', [T.string, T.string, T.int], T.int, (a) => indexOf(a[0] as string, a[1] as string, a[2] as bigint)),
  );
  r.add(
    'lastIndexOf',
    member('string_last_index_of_string', [T.string, T.string], T.int, (a) => lastIndexOf(a[0] as string, a[1] as string)),
    member('string_last_index_of_string_int', [T.string, T.string, T.int], T.int, (a) => lastIndexOf(a[0] as string, a[1] as string, a[2] as bigint)),
  );
  r.add('lowerAscii', member('string_lower_ascii', [T.string], T.string, (a) => asciiCase(a[0] as string, false), { cost: cost1, estimate: strEstimate }));
  r.add('upperAscii', member('string_upper_ascii', [T.string], T.string, (a) => asciiCase(a[0] as string, true), { cost: cost1, estimate: strEstimate }));
  const replaceCost = (a: Value[]): number => Math.ceil(actualSize(a[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR);
  r.add(
    'replace',
    member('string_replace_string_string', [T.string, T.string, T.string], T.string, (a) => goReplace(a[0] as string, a[1] as string, a[2] as string, -1n), {
      cost: replaceCost,
    }),
    member('string_replace_string_string_int', [T.string, T.string, T.string, T.int], T.string, (a) => goReplace(a[0] as string, a[1] as string, a[2] as string, a[3] as bigint), {
      cost: replaceCost,
    }),
  );
  r.add(
    'split',
    member('string_split_string', [T.string, T.string], T.list(T.string), (a) => goSplit(a[0] as string, a[1] as string, -1n), { cost: replaceCost }),
    member('string_split_string_int', [T.string, T.string, T.int], T.list(T.string), (a) => goSplit(a[0] as string, a[1] as string, a[2] as bigint), {
      cost: replaceCost,
    }),
  );
  r.add(
    'substring',
    member('string_substring_int', [T.string, T.int], T.string, (a) => substring(a[0] as string, a[1] as bigint), { cost: cost1, estimate: strEstimate }),
    member('string_substring_int_int', [T.string, T.int, T.int], T.string, (a) => substring(a[0] as string, a[1] as bigint, a[2] as bigint), {
      cost: cost1,
      estimate: strEstimate,
    }),
  );
  r.add('trim', member('string_trim', [T.string], T.string, (a) => goTrimSpace(a[0] as string), { cost: cost1, estimate: strEstimate }));
  const join = (a: Value[]): Val => {
    const list = a[0] as Value[];
    if (!list.every((x) => typeof x === 'string')) return new CelError('join: list elements must be strings');
    return list.join(a.length > 1 ? (a[1] as string) : '');
  };
  const joinCost = (_a: Value[], result: Val): number => Math.ceil(actualSize(result) * 2 * STRING_TRAVERSAL_COST_FACTOR);
  r.add(
    'join',
    member('list_join', [T.list(T.string)], T.string, join, { cost: joinCost }),
    member('list_join_string', [T.list(T.string), T.string], T.string, join, { cost: joinCost }),
  );
  if (version >= 3) r.add('reverse', member('string_reverse', [T.string], T.string, (a) => cps(a[0] as string).reverse().join(''), { cost: cost1 }));
  r.add(
    'strings.quote',
    global('strings_quote', [T.string], T.string, (a) => quoteString(a[0] as string), {
      cost: cost1,
      estimate: (a) => ({ cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: a[0].size.min + 2, max: a[0].size.max * 2 + 2 } }),
    }),
  );
  r.add(
    'format',
    member('string_format', [T.string, T.list(T.dyn)], T.string, (a) => (version >= 4 ? formatString : legacyFormat)(a[0] as string, a[1] as Value[]), {
      cost: (a) => traversalCost(actualSize(a[0])),
    }),
  );
}
