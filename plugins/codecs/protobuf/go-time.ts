/*
 * Go's time values as metav1 writes them: Time as RFC 3339 in UTC with whole seconds, MicroTime with exactly six
 * fractional digits, Duration as time.Duration's String() (`1h2m3.5s`) and parsed as time.ParseDuration does.
 */
import { ConvertError } from './json-shape.js';

/** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds: metav1 writes it as JSON null. */
export const goZeroTimeUnixSeconds = -62135596800;
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
let lastParsed = { text: '', seconds: 0 };

/** Unix seconds (and nanos) as RFC 3339 in UTC; `fractionDigits` 0 for Time, 6 for MicroTime. */
export function formatRfc3339(unixSeconds: number, nanos: number, fractionDigits: number): string {
  const suffix = (fractionDigits ? '.' + String(nanos).padStart(9, '0').slice(0, fractionDigits) : '') + 'Z';
  if (unixSeconds === lastFormatted.seconds && suffix === lastFormatted.suffix) return lastFormatted.text;
  if (!Number.isInteger(unixSeconds) || unixSeconds < goZeroTimeUnixSeconds || unixSeconds > lastRfc3339Second) {
    throw new ConvertError(`timestamp ${unixSeconds} is outside 0001-01-01T00:00:00Z..9999-12-31T23:59:59Z`);
  }
  const text = new Date(unixSeconds * 1000).toISOString().slice(0, 19) + suffix;
  lastFormatted = { seconds: unixSeconds, suffix, text };
  return text;
}

const rfc3339Pattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

const plainUtcPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Parses an RFC 3339 timestamp (as Go's `time.Parse(time.RFC3339, ...)` accepts it) into Unix seconds and nanos. */
export function parseRfc3339(text: string): { seconds: number; nanos: number } {
  // The form every stored timestamp has: the native parser, checked by printing the instant back.
  if (text === lastParsed.text) return { seconds: lastParsed.seconds, nanos: 0 };
  if (plainUtcPattern.test(text)) {
    const ms = Date.parse(text);
    if (ms === ms && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19)) {
      lastParsed = { text, seconds: ms / 1000 };
      return { seconds: ms / 1000, nanos: 0 };
    }
  }
  const m = rfc3339Pattern.exec(text);
  if (!m) throw new ConvertError(`parsing time ${JSON.stringify(text)} as RFC 3339 failed`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (
    month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 ||
    date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day
  ) {
    throw new ConvertError(`parsing time ${JSON.stringify(text)}: out of range`);
  }
  let offsetSeconds = 0;
  if (m[8] !== 'Z' && m[8] !== 'z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const [oh, om] = m[8].slice(1).split(':').map(Number);
    if (oh > 23 || om > 59) throw new ConvertError(`parsing time ${JSON.stringify(text)}: time zone offset out of range`);
    offsetSeconds = sign * (oh * 3600 + om * 60);
  }
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds: date.getTime() / 1000 - offsetSeconds, nanos };
}

// ---- time.Duration ------------------------------------------------------------------------------------------------

const second = 1_000_000_000n;

/** The fraction `frac / 10^digits` as Go prints it: trailing zeros dropped, no point when nothing is left. */
function fraction(frac: bigint, digits: number): string {
  const text = frac.toString().padStart(digits, '0').replace(/0+$/, '');
  return text ? '.' + text : '';
}

/** time.Duration(ns).String(). */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  let text: string;
  if (u < second) {
    const [unit, digits] = u < 1000n ? ['ns', 0] : u < 1_000_000n ? ['µs', 3] : ['ms', 6];
    const scale = 10n ** BigInt(digits);
    text = `${u / scale}${fraction(u % scale, digits)}${unit}`;
  } else {
    const seconds = u / second;
    text = `${seconds % 60n}${fraction(u % second, 9)}s`;
    const minutes = seconds / 60n;
    if (minutes > 0n) {
      text = `${minutes % 60n}m${text}`;
      const hours = minutes / 60n;
      if (hours > 0n) text = `${hours}h${text}`;
    }
  }
  return neg ? '-' + text : text;
}

const durationUnits: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n, // U+00B5 micro sign
  'μs': 1000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: second,
  m: 60n * second,
  h: 3600n * second,
};
const durationPart = /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/y;
const maxInt64 = 2n ** 63n - 1n;

/** time.ParseDuration: `[-+]` then one or more `<decimal><unit>`, or a bare `0`. */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new ConvertError(`time: invalid duration ${JSON.stringify(text)}`);
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  let pos = 0;
  while (pos < s.length) {
    durationPart.lastIndex = pos;
    const m = durationPart.exec(s);
    if (!m || (m[1] === '' && !m[2])) throw invalid();
    const unit = durationUnits[m[3]];
    let value = BigInt(m[1] || '0') * unit;
    if (m[2]) value += (BigInt(m[2]) * unit) / 10n ** BigInt(m[2].length);
    total += value;
    if (total > maxInt64 + (neg ? 1n : 0n)) throw invalid();
    pos = durationPart.lastIndex;
  }
  return neg ? -total : total;
}
