/*
 * Go's time values as metav1 writes them, on lib/go's one parser and formatter: Time as RFC 3339 in UTC with whole
 * seconds, MicroTime with exactly six fractional digits, Duration as time.Duration's String() (`1h2m3.5s`) and parsed
 * as time.ParseDuration does.
 */
import { parseGoDuration as parseDuration } from '../../../lib/go/duration.js';
import { goTimeQuote } from '../../../lib/go/go-values.js';
import { formatRFC3339, goZeroTimeUnixSeconds, parseRFC3339OrError } from '../../../lib/go/timestamp.js';
import { ConvertError } from './json-shape.js';

const nanosPerSecond = 1_000_000_000;

/** time.Unix(seconds, nanos): nanos outside [0, 1e9) carry into the seconds. */
export function normalizeUnix(seconds: number, nanos: number): { seconds: number; nanos: number } {
  const carry = Math.floor(nanos / nanosPerSecond);
  return { seconds: seconds + carry, nanos: nanos - carry * nanosPerSecond };
}

/** 9999-12-31T23:59:59Z in Unix seconds: RFC 3339 has four-digit years. */
const lastRfc3339Second = 253402300799;

// The last timestamp printed and parsed: objects repeat theirs (creationTimestamp, managedFields[].time), lists often
// hold runs of equal ones.
let lastFormatted = { seconds: NaN, suffix: '', text: '' };
let lastParsed = { text: '', seconds: 0, nanos: 0 };

/** Unix seconds (and nanos) as RFC 3339 in UTC; `fractionDigits` 0 for Time, 6 for MicroTime. */
export function formatRfc3339(unixSeconds: number, nanos: number, fractionDigits: number): string {
  const suffix = (fractionDigits ? '.' + String(nanos).padStart(9, '0').slice(0, fractionDigits) : '') + 'Z';
  if (unixSeconds === lastFormatted.seconds && suffix === lastFormatted.suffix) return lastFormatted.text;
  if (!Number.isInteger(unixSeconds) || unixSeconds < goZeroTimeUnixSeconds || unixSeconds > lastRfc3339Second) {
    throw new ConvertError(`timestamp ${unixSeconds} is outside 0001-01-01T00:00:00Z..9999-12-31T23:59:59Z`);
  }
  const text = formatRFC3339({ seconds: unixSeconds, nanos, offset: 0 }, fractionDigits);
  lastFormatted = { seconds: unixSeconds, suffix, text };
  return text;
}

/** Parses an RFC 3339 timestamp as Go's `time.Parse(time.RFC3339, ...)` does into Unix seconds and nanos. */
export function parseRfc3339(text: string): { seconds: number; nanos: number } {
  if (text === lastParsed.text) return { seconds: lastParsed.seconds, nanos: lastParsed.nanos };
  const t = parseRFC3339OrError(text);
  if (typeof t === 'string') throw new ConvertError(t);
  lastParsed = { text, seconds: t.seconds, nanos: t.nanos };
  return { seconds: t.seconds, nanos: t.nanos };
}

// ---- time.Duration ------------------------------------------------------------------------------------------------

/** time.ParseDuration, throwing Go's error text. */
export function parseGoDuration(text: string): bigint {
  const ns = parseDuration(text);
  if (ns === undefined) throw new ConvertError(`time: invalid duration ${goTimeQuote(text)}`);
  return ns;
}
