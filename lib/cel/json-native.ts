/**
 * CEL values as JSON data, as cel-go converts them to a protobuf Value for JSON (ConvertToNative to structpb.Value):
 * numbers (int, uint, double), strings, bools, null, lists, maps with string keys, bytes as base64, timestamps as
 * RFC 3339 and durations as seconds. Objects give their fields. Anything else cannot be JSON.
 */
import { formatDuration, formatRFC3339 } from './time.js';
import { CelMap, Duration, Timestamp, UInt, isObjectValue, typeNameOf, type Value } from './values.js';
import { setOwnField } from '../codec/own-field.js';

/** A value that has no JSON form; the message is cel-go's. */
export class NotJsonError extends Error {}

export function celToJson(v: Value): unknown {
  switch (typeof v) {
    case 'bigint':
      return Number(v);
    case 'number':
    case 'string':
    case 'boolean':
      return v;
    default:
      break;
  }
  if (v === null) return null;
  if (v instanceof UInt) return Number(v.v);
  if (Array.isArray(v)) return v.map(celToJson);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Timestamp) return formatRFC3339(v);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof CelMap) {
    const out: Record<string, unknown> = {};
    for (const k of v.keys()) {
      if (typeof k !== 'string') throw new NotJsonError(`bad key type: ${typeNameOf(k)}`);
      setOwnField(out, k, celToJson(v.get(k) as Value));
    }
    return out;
  }
  if (isObjectValue(v)) {
    const out: Record<string, unknown> = {};
    for (const f of v.fieldNames()) setOwnField(out, f, celToJson(v.field(f)!));
    return out;
  }
  throw new NotJsonError(`type conversion error from '${typeNameOf(v)}' to 'google.protobuf.Value'`);
}

