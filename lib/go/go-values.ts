import { goCompare } from './strings.js';

/**
 * How Go prints JSON values, so that messages built from custom resources read exactly as kube-apiserver writes
 * them. A JSON number decoded by apimachinery is an int64 when it has no fraction and fits, otherwise a float64.
 */

const INT64_LIMIT = 2 ** 63;

/** Whether apimachinery decodes this number as an int64 (as opposed to a float64). */
export function isGoInt(x: number): boolean {
  return Number.isInteger(x) && Math.abs(x) < INT64_LIMIT;
}

/** Printable ASCII other than `"` and `\`: quoted as it is. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * Go's `strconv.Quote` (and so `%q`): printable runes kept, `"` and `\` backslashed, the rest escaped (`\n`, `\x01`,
 * `\u200b`, `\U000e0001`). A lone surrogate prints as U+FFFD, which is printable: JS only holds one from a JSON
 * `\ud800` escape, which Go's JSON decoder turns into a valid U+FFFD (strconv's `\xNN` per byte is for invalid UTF-8,
 * which no decoded string contains).
 */
export function goQuote(s: string): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  // `\` and `"` first (their escapes hold nothing the second pass looks at), then the runs of runes Go does not print
  // as they are: linear in the text, native work for what is printable (a megabyte of quotes is a 400, not a stall).
  const backslashed = s.split('\\').join('\\\\').split('"').join('\\"');
  return `"${backslashed.replace(NOT_GO_PRINTABLE_RUN, (run) => Array.from(run, quoteRune).join(''))}"`;
}

/** Runs of what Go's strconv.IsPrint refuses (see isGoPrint), lone surrogates included. */
const NOT_GO_PRINTABLE_RUN = /[^\x20-\x7e\p{L}\p{M}\p{N}\p{P}\p{S}]+/gu;

/** How strconv.Quote writes one rune it does not print as it is. */
function quoteRune(ch: string): string {
  const r = ch.codePointAt(0)!;
  if (r >= 0xd800 && r <= 0xdfff) return '\ufffd';
  switch (r) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + hex(r, 2);
  if (r < 0x10000) return '\\u' + hex(r, 4);
  return '\\U' + hex(r, 8);
}

/**
 * The time package's own quoting in its errors (time.ParseDuration, time.Parse): printable ASCII kept (`"` and `\`
 * escaped), every other byte of the UTF-8 text as `\xNN`.
 */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    if (ch >= ' ' && ch < '\x80') out += ch === '"' || ch === '\\' ? '\\' + ch : ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += '\\x' + hex(byte, 2);
  }
  return out + '"';
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `unicode.IsPrint` (and strconv.IsPrint) of one rune: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isGoPrint(ch: string): boolean {
  return PRINTABLE.test(ch);
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Go's `%v` of a float64: the shortest representation, in exponent form below 1e-4 and from 1e6 on (`1e+06`). */
export function goFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  // %v is %g with the shortest precision: %e when the exponent is < -4 or >= 6 (strconv's eprec for shortest).
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : String(abs)}`;
  }
  return decimal(x);
}

/** The plain decimal form of a number whose exponent is in [-4, 6) or an integer. */
function decimal(x: number): string {
  const s = String(x);
  if (!/e/i.test(s)) return s;
  // String() only uses exponents below 1e-6 or from 1e21 on; our callers stay within plain-decimal range.
  return x.toFixed(20).replace(/\.?0+$/, '');
}

/** Go's `%v` of a decoded JSON number: int64 printed in decimal, float64 as {@link goFloat}. */
export function goNumber(x: number): string {
  return isGoInt(x) ? intString(x) : goFloat(x);
}

function intString(x: number): string {
  return Math.abs(x) < 1e21 ? BigInt(x).toString() : String(x);
}

/** Go's `%#v` of a decoded JSON value (`map[string]interface {}{...}`, `[]interface {}{...}`, quoted strings). */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort(goCompare);
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpV(o[k])}`).join(', ')}}`;
}

/** Go's `%v` of a decoded JSON value (used where kube-openapi prints enum lists: `[a b 1]`). */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort(goCompare);
  return `map[${keys.map((k) => `${k}:${goV(o[k])}`).join(' ')}]`;
}

/** Go's `encoding/json.Marshal` of a decoded JSON value (keys sorted in Go's order, HTML characters escaped). */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return goJSONNumber(v);
  if (typeof v === 'string') return goJSONString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort(goCompare);
  return `{${keys.map((k) => `${goJSONString(k)}:${goJSON(o[k])}`).join(',')}}`;
}

const jsonUnsafe = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;

/** A JSON string as encoding/json writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped; lone surrogates as U+FFFD. */
export function goJSONString(s: string): string {
  if (!jsonUnsafe.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b'; // Go 1.22 on, as kube 1.32 is built
    else if (c === 0x0c) out += '\\f';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) out += '\\u' + hex(c, 4);
    else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += s[i] + s[i + 1];
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += s[i];
  }
  return out + '"';
}

function goJSONNumber(x: number): string {
  if (isGoInt(x)) return intString(x);
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    // encoding/json uses %e here, with a two-digit exponent at least ("1e-07").
    return x.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(x);
}


/**
 * How a `field.Error` prints its bad value (apimachinery's ErrorBody): strings quoted, numbers and booleans bare,
 * null as "null", anything else with `%#v`.
 */
export function kubeBadValue(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  return goSharpV(v);
}
