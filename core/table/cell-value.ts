import { age } from '../../lib/go/human-duration.js';

/**
 * A custom column's cell, as apiextensions-apiserver's table convertor derives it from the first value
 * the column's JSONPath selects: `string` columns print the value as text, the other types convert it
 * (and anything that does not fit the type is null).
 */
export function cellValue(type: string, value: unknown, now: Date): unknown {
  if (type === 'string') return goText(value);
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? age(value, now) : null;
    default:
      return null;
  }
}

/** How client-go's jsonpath prints one value: scalars as Go's fmt.Print does, maps and lists as JSON. */
function goText(value: unknown): string {
  if (value === null || value === undefined) return '<no value>';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : goFloat(value);
  if (typeof value === 'object') return goJson(value);
  return String(value);
}

/** Go's %v of a float64: shortest digits, exponent form below 1e-4 and from 1e6 (`1.5e+06`). */
function goFloat(value: number): string {
  const [mantissa, exp] = value.toExponential().split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(value);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** Go's json.Marshal: object keys sorted, and <, >, &, U+2028, U+2029 escaped. */
function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]))
        : v;
  const escapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (c) => escapes[c]);
}
