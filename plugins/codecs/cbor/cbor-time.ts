import { formatRFC3339, parseRFC3339OrError } from '../../../lib/go/timestamp.js';
import { CborError } from './cbor-errors.js';

/**
 * The CBOR time tags as kube's decoder turns them into strings (TimeTagToAny: RFC3339Nano): tag 0 holds an RFC 3339
 * text, tag 1 seconds since the epoch. Error texts are Go's (time.Parse, Time.MarshalText) behind fxamacker's prefix.
 */

const unrepresentable = 'cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: Time.MarshalText: ';

/** Tag 0: an RFC 3339 text, re-formatted as Go's RFC3339Nano (fraction without trailing zeros, `Z` for UTC). */
export function rfc3339TagToString(text: string): string {
  const t = parseRFC3339OrError(text);
  if (typeof t === 'string') throw new CborError(`cbor: cannot set ${text} for time.Time: ${t}`);
  if (Math.abs(t.offset) >= 24 * 3600) throw new CborError(`${unrepresentable}timezone hour outside of range [0,23]`);
  return formatRFC3339(t);
}

/** Tag 1: seconds since the epoch (an integer or a float), as a UTC RFC3339Nano string. */
export function epochTagToString(seconds: number): string {
  let whole = Math.trunc(seconds);
  let nanos = Math.trunc((seconds - whole) * 1e9);
  if (nanos < 0) {
    whole -= 1;
    nanos += 1e9;
  }
  // Years 0 through 9999 only, as Go's Time.MarshalText.
  if (whole < -62167219200 || whole > 253402300799) throw new CborError(`${unrepresentable}year outside of range [0,9999]`);
  return formatRFC3339({ seconds: whole, nanos, offset: 0 });
}
