/**
 * Texts as Go writes them, for the strings kube-apiserver builds with structured-merge-diff: string comparison in
 * UTF-8 byte order (Go's `<` on strings), `%v` of numbers, and JSON as encoding/json writes it
 * (HTML-escaped strings, map keys sorted).
 */
import { goCompare } from '../../lib/go/strings.js';

const HEX = '0123456789abcdef';

/** `fmt.Sprintf("%v", n)` of a JSON number: integers as such, other floats like Go's %g (shortest, 2-digit exponent). */
export function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 21) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

const jsonUnsafe = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;

/** A JSON string as encoding/json writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped; lone surrogates as U+FFFD. */
export function goJsonString(s: string): string {
  if (!jsonUnsafe.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) out += '\\u00' + HEX[c >> 4] + HEX[c & 15];
    else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += s[i] + s[i + 1];
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += s[i];
  }
  return out + '"';
}

/** A JSON value as encoding/json writes a decoded JSON document (object keys sorted in Go's order). */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goJsonString(v);
    case 'number':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return '[' + v.map(goJson).join(',') + ']';
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort(goCompare);
  return '{' + keys.map((k) => goJsonString(k) + ':' + goJson(o[k])).join(',') + '}';
}
