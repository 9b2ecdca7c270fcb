/**
 * `string.format` as cel-go v0.22 implements it for strings-extension versions below 4 (Kubernetes 1.32 uses
 * version 2): `%s` renders lists and maps as CEL literals, `%f` and `%e` go through golang.org/x/text's en-US number
 * formatting (digit grouping, `×10` superscript exponents, `∞`), and a compile-time check (cel-go's
 * stringFormatValidator) rejects clauses whose literal arguments have the wrong type.
 */
import { goQuote } from '../go/go-values.js';
import type { Expr } from './ast.js';
import type { CheckedAst } from './checker.js';
import { fixedFinite, nonFiniteText, scaledRound, scientificDigits } from './float-digits.js';
import { formatDuration, formatRFC3339 } from './time.js';
import type { Type } from './types.js';
import { CelError, CelMap, Duration, Timestamp, TypeValue, UInt, formatDouble, typeNameOf, type Val, type Value } from './values.js';

class FormatError extends Error {
  /** The expression the checker reports the error at (the argument), when known. */
  constructor(
    message: string,
    readonly argIndex?: number,
  ) {
    super(message);
  }
}

const NNBSP = '\u202f';
const SUPER_DIGITS = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

function group(intDigits: string): string {
  let out = '';
  for (let i = 0; i < intDigits.length; i++) {
    if (i > 0 && (intDigits.length - i) % 3 === 0) out += ',';
    out += intDigits[i];
  }
  return out;
}

function nonFinite(x: number): string | undefined {
  return nonFiniteText(x, '∞');
}

/** golang.org/x/text message.Printer (en-US) `%.{p}f`: `1,234.500000`. */
export function textFixed(x: number, p: number): string {
  const nf = nonFinite(x);
  if (nf) return nf;
  const digits = scaledRound(x, p).toString().padStart(p + 1, '0');
  const sign = x < 0 ? '-' : '';
  const intPart = group(p ? digits.slice(0, -p) : digits);
  return sign + (p ? `${intPart}.${digits.slice(-p)}` : intPart);
}

/** golang.org/x/text message.Printer (en-US) `%.{p}e`: `3.140000 × 10⁰⁰` (narrow no-break spaces). */
export function textScientific(x: number, p: number): string {
  const nf = nonFinite(x);
  if (nf) return nf;
  const sign = x < 0 ? '-' : '';
  const { k, q } = x === 0 ? { k: 0, q: 0n } : scientificDigits(x, p);
  const d = q.toString().padStart(p + 1, '0');
  const mant = p ? `${d[0]}.${d.slice(1)}` : d;
  const expDigits = String(Math.abs(k)).padStart(2, '0');
  return `${sign}${mant}${NNBSP}×${NNBSP}10${k < 0 ? '⁻' : ''}${[...expDigits].map((c) => SUPER_DIGITS[Number(c)]).join('')}`;
}

function bytesToString(b: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    throw new FormatError(`could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string`);
  }
}

const STRING_CLAUSE_ERROR = 'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given';

/** cel-go's FormatString: the `%s` clause. */
function formatStringClause(v: Value): string {
  if (Array.isArray(v)) return formatList(v);
  if (v instanceof CelMap) return formatMap(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof UInt) return v.v.toString();
  if (typeof v === 'number') return formatDouble(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof Timestamp) return formatRFC3339(v);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof Uint8Array) return bytesToString(v);
  if (v instanceof TypeValue) return v.name;
  if (v === null) return 'null';
  throw new FormatError(`${STRING_CLAUSE_ERROR} ${typeNameOf(v)}`);
}

function formatDecimal(v: Value): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof UInt) return v.v.toString();
  throw new FormatError(`decimal clause can only be used on integers, was given ${typeNameOf(v)}`);
}

/** cel-go's clauseForType: how list elements and map values are rendered. */
function memberClause(v: Value): string {
  if (typeof v === 'bigint' || v instanceof UInt) return formatDecimal(v);
  if (typeof v === 'string' || v instanceof Uint8Array || typeof v === 'boolean' || v === null || v instanceof TypeValue) return formatStringClause(v);
  if (v instanceof Timestamp) return `timestamp(${goQuote(formatRFC3339(v))})`;
  if (v instanceof Duration) return `duration(${goQuote(formatDuration(v))})`;
  if (Array.isArray(v)) return formatList(v);
  if (v instanceof CelMap) return formatMap(v);
  if (typeof v === 'number') return goFixed(v, 6);
  throw new FormatError(`no formatting function for ${typeNameOf(v)}`);
}

/** Go's fmt `%.{p}f` (no grouping; `+Inf`, `NaN`). */
function goFixed(x: number, p: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  return fixedFinite(x, p);
}

function quoteForCEL(v: Value, unquoted: string): string {
  if (typeof v === 'string') return goQuote(unquoted);
  if (v instanceof Uint8Array) return 'b' + goQuote(unquoted);
  if (typeof v === 'number' && !Number.isFinite(v)) return goQuote(unquoted);
  return unquoted;
}

function formatList(list: Value[]): string {
  return `[${list.map((m) => quoteForCEL(m, memberClause(m))).join(', ')}]`;
}

function formatMap(m: CelMap): string {
  const pairs: [string, string][] = [];
  for (const k of m.keys()) {
    let ks: string;
    if (typeof k === 'string' || typeof k === 'boolean') ks = formatStringClause(k);
    else if (typeof k === 'bigint' || k instanceof UInt) ks = formatDecimal(k);
    else throw new FormatError(`no formatting function for map key of type ${typeNameOf(k)}`);
    const v = m.get(k) as Value;
    pairs.push([quoteForCEL(k, ks), quoteForCEL(v, memberClause(v))]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

function floatArg(v: Value, clause: string): number {
  if (typeof v === 'string' && (v === 'NaN' || v === 'Infinity' || v === '-Infinity')) return Number(v);
  if (typeof v !== 'number') throw new FormatError(`${clause} clause can only be used on doubles, was given ${typeNameOf(v)}`);
  return v;
}

function radix(v: Value, base: number, upper: boolean): string {
  const i = typeof v === 'bigint' ? v : v instanceof UInt ? v.v : undefined;
  if (i !== undefined) {
    const s = (i < 0n ? '-' : '') + (i < 0n ? -i : i).toString(base);
    return upper ? s.toUpperCase() : s;
  }
  if (base === 2) {
    if (typeof v === 'boolean') return v ? '1' : '0';
    throw new FormatError(`only integers and bools can be formatted as binary, was given ${typeNameOf(v)}`);
  }
  if (base === 8) throw new FormatError(`octal clause can only be used on integers, was given ${typeNameOf(v)}`);
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const s = Buffer.from(typeof v === 'string' ? new TextEncoder().encode(v) : v).toString('hex');
    return upper ? s.toUpperCase() : s;
  }
  throw new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeNameOf(v)}`);
}

interface Clause {
  verb: string;
  precision?: number;
  /** characters consumed after the `%` */
  read: number;
}

/** Parses the clause after a `%` (cel-go's parseFormattingClause); throws with cel-go's wording. */
function parseClause(rest: string): Clause {
  let i = 0;
  let precision: number | undefined;
  if (rest[0] === '.') {
    i = 1;
    let digits = '';
    for (;;) {
      if (i >= rest.length) throw new FormatError('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
      if (!/[0-9]/.test(rest[i])) break;
      digits += rest[i++];
    }
    if (digits === '') {
      throw new FormatError('could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
    }
    precision = Number(digits);
  }
  const verb = rest[i];
  if (!'sdfeboxX'.includes(verb)) throw new FormatError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
  return { verb, precision, read: i + 1 };
}

function applyClause(c: Clause, v: Value): string {
  switch (c.verb) {
    case 's':
      return formatStringClause(v);
    case 'd':
      return formatDecimal(v);
    case 'f':
      return textFixed(floatArg(v, 'fixed-point'), c.precision ?? 6);
    case 'e':
      return textScientific(floatArg(v, 'scientific'), c.precision ?? 6);
    case 'b':
      return radix(v, 2, false);
    case 'o':
      return radix(v, 8, false);
    default:
      return radix(v, 16, c.verb === 'X');
  }
}

/** cel-go v0.22's `string.format(list)`. */
export function legacyFormat(fmt: string, args: Value[]): Val {
  let out = '';
  let argIndex = 0;
  try {
    for (let i = 0; i < fmt.length; ) {
      if (fmt[i] !== '%') {
        out += fmt[i++];
        continue;
      }
      if (fmt[i + 1] === '%') {
        out += '%';
        i += 2;
        continue;
      }
      if (argIndex >= args.length) return new CelError(`index ${argIndex} out of range`);
      if (i + 1 >= fmt.length) return new CelError('unexpected end of string');
      const clause = parseClause(fmt.slice(i + 1));
      try {
        out += applyClause(clause, args[argIndex]);
      } catch (e) {
        if (e instanceof FormatError) return new CelError(`error during formatting: ${e.message}`);
        throw e;
      }
      i += 1 + clause.read;
      argIndex++;
    }
  } catch (e) {
    if (e instanceof FormatError) return new CelError(e.message);
    throw e;
  }
  return out;
}

type Kind = 'dyn' | 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null' | 'timestamp' | 'duration' | 'list' | 'map' | 'type' | 'other';

function kindOf(t: Type | undefined): Kind {
  if (!t) return 'dyn';
  switch (t.kind) {
    case 'dyn':
    case 'error':
    case 'param':
    case 'var':
      return 'dyn';
    case 'list':
    case 'map':
    case 'type':
      return t.kind;
    case 'prim':
      switch (t.name) {
        case 'null_type':
          return 'null';
        case 'google.protobuf.Timestamp':
          return 'timestamp';
        case 'google.protobuf.Duration':
          return 'duration';
        default:
          return t.name;
      }
    default:
      return 'other';
  }
}

/** cel-go's checked type name (`list`, `map`, `google.protobuf.Timestamp`, an object's name). */
function typeName(t: Type | undefined): string {
  if (!t) return 'dyn';
  switch (t.kind) {
    case 'prim':
      return t.name;
    case 'list':
    case 'map':
    case 'type':
      return t.kind;
    case 'opaque':
    case 'object':
      return t.name;
    default:
      return 'dyn';
  }
}

/**
 * cel-go's stringFormatValidator: `'<literal>'.format([<list literal>])` is checked when compiled, so a clause with
 * an argument of the wrong type, a missing argument or an unused one is a compile error.
 */
export function validateFormatCalls(ast: CheckedAst): { offset: number; message: string }[] {
  const issues: { offset: number; message: string }[] = [];
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'call':
        if (e.target) visit(e.target);
        for (const a of e.args) visit(a);
        if (e.fn === 'format' && e.target?.kind === 'const' && typeof e.target.value === 'string' && e.args.length === 1 && e.args[0].kind === 'list') {
          checkFormat(e.id, e.target.value, e.args[0].elements);
        }
        return;
      case 'select':
        visit(e.operand);
        return;
      case 'list':
        e.elements.forEach(visit);
        return;
      case 'map':
        for (const en of e.entries) {
          visit(en.key);
          visit(en.value);
        }
        return;
      case 'struct':
        for (const f of e.fields) visit(f.value);
        return;
      case 'comprehension':
        [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].forEach(visit);
        return;
      default:
        return;
    }
  };
  const report = (id: number, message: string): void => {
    issues.push({ offset: ast.source.offsetOf(id), message });
  };
  const kind = (e: Expr): Kind => kindOf(ast.types.get(e.id));
  const verifyString = (e: Expr): Expr | undefined => {
    const k = kind(e);
    if (k === 'other') return e;
    if (e.kind === 'list') {
      for (const x of e.elements) {
        const bad = verifyString(x);
        if (bad) return bad;
      }
    } else if (e.kind === 'map') {
      for (const en of e.entries) {
        const bad = verifyString(en.key) ?? verifyString(en.value);
        if (bad) return bad;
      }
    }
    return undefined;
  };
  const checkFormat = (callId: number, fmt: string, args: Expr[]): void => {
    let argIndex = 0;
    for (let i = 0; i < fmt.length; ) {
      if (fmt[i] !== '%') {
        i++;
        continue;
      }
      if (fmt[i + 1] === '%') {
        i += 2;
        continue;
      }
      if (i + 1 >= fmt.length) return report(callId, 'unexpected end of string');
      if (argIndex >= args.length) return report(callId, `index ${argIndex} out of range`);
      let clause: Clause;
      try {
        clause = parseClause(fmt.slice(i + 1));
      } catch (e) {
        return report(callId, (e as Error).message);
      }
      const arg = args[argIndex];
      const k = kind(arg);
      const ok = (...kinds: Kind[]): boolean => k === 'dyn' || kinds.includes(k);
      const fail = (e: Expr, msg: string): void => report(e.id, `error during formatting: ${msg} ${typeName(ast.types.get(e.id))}`);
      switch (clause.verb) {
        case 's': {
          const bad = verifyString(arg);
          if (bad) return fail(bad, STRING_CLAUSE_ERROR);
          break;
        }
        case 'd':
          if (!ok('int', 'uint')) return fail(arg, 'decimal clause can only be used on integers, was given');
          break;
        case 'f':
          if (!ok('double', 'string')) return fail(arg, 'fixed-point clause can only be used on doubles, was given');
          break;
        case 'e':
          if (!ok('double', 'string')) return fail(arg, 'scientific clause can only be used on doubles, was given');
          break;
        case 'b':
          if (!ok('int', 'uint', 'bool')) return fail(arg, 'only integers and bools can be formatted as binary, was given');
          break;
        case 'o':
          if (!ok('int', 'uint')) return fail(arg, 'octal clause can only be used on integers, was given');
          break;
        default:
          if (!ok('int', 'uint', 'string', 'bytes')) return fail(arg, 'only integers, byte buffers, and strings can be formatted as hex, was given');
      }
      i += 1 + clause.read;
      argIndex++;
    }
    if (args.length > argIndex) report(callId, `too many arguments supplied to string.format (expected ${argIndex}, got ${args.length})`);
  };
  visit(ast.expr);
  return issues;
}
