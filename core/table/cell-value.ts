import { goFloat, goJSON } from '../../lib/go/go-values.js';
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
  if (typeof value === 'object') return goJSON(value);
  return String(value);
}

