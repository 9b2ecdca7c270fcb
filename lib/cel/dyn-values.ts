/**
 * JSON data as CEL values without a schema, as Kubernetes hands unstructured data to expressions (admission objects,
 * token claims): objects are maps with string keys (values converted on first access), arrays lists, integral numbers
 * int, other numbers double.
 */
import { StringKeyMap, type Value } from './values.js';
import { isGoInt } from '../go/go-values.js';

export function dynValue(raw: unknown): Value {
  switch (typeof raw) {
    case 'string':
    case 'boolean':
      return raw;
    case 'number':
      return isGoInt(raw) ? BigInt(raw) : raw;
    case 'object':
      if (raw === null) return null;
      if (Array.isArray(raw)) return raw.map(dynValue);
      return new StringKeyMap(raw as Record<string, unknown>, dynValue);
    default:
      return null;
  }
}
