/**
 * Timestamps and durations as Go (and so cel-go) parses and prints them: RFC 3339 with up to nanosecond fractions,
 * Go's time.ParseDuration, civil-date arithmetic, and time zones given as IANA names or `±HH:MM` offsets.
 */
import { Duration, MAX_INT64, MIN_INT64, Timestamp } from './values.js';

const NS = 1_000_000_000n;

/** Days since 1970-01-01 of a proleptic Gregorian date. */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of a day count since 1970-01-01. */
export function civilFromDays(z: number): { year: number; month: number; day: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: month <= 2 ? y + 1 : y, month, day };
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysIn(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Go's time.Parse(time.RFC3339, s) (fractional seconds accepted); undefined when it does not parse. */
export function parseRFC3339(s: string): Timestamp | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [year, month, day, hour, min, sec] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || min > 59 || sec > 59) return undefined;
  let offset = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[8].slice(1, 3));
    const om = Number(m[8].slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 60 + om) * 60 * (m[8][0] === '-' ? -1 : 1);
  }
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86400n + BigInt(hour * 3600 + min * 60 + sec - offset);
  return new Timestamp(seconds, nanos, offset);
}

/** An RFC 3339 full-date (`2024-01-31`) as a timestamp at midnight UTC (OpenAPI format `date`). */
export function parseDate(s: string): Timestamp | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = m.slice(1).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return undefined;
  return new Timestamp(BigInt(daysFromCivil(y, mo, d)) * 86400n, 0);
}

/** Go's t.Format(time.RFC3339Nano), in the offset the timestamp was written with (`Z` for UTC). */
export function formatRFC3339(t: Timestamp): string {
  const local = t.seconds + BigInt(t.offset);
  const days = Number((local - (((local % 86400n) + 86400n) % 86400n)) / 86400n);
  const secOfDay = Number(((local % 86400n) + 86400n) % 86400n);
  const { year, month, day } = civilFromDays(days);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const frac = t.nanos ? '.' + String(t.nanos).padStart(9, '0').replace(/0+$/, '') : '';
  const off = Math.abs(t.offset);
  const zone = t.offset === 0 ? 'Z' : `${t.offset < 0 ? '-' : '+'}${p2(Math.floor(off / 3600))}:${p2(Math.floor(off / 60) % 60)}`;
  return `${String(year).padStart(4, '0')}-${p2(month)}-${p2(day)}T${p2(Math.floor(secOfDay / 3600))}:${p2(Math.floor(secOfDay / 60) % 60)}:${p2(secOfDay % 60)}${frac}${zone}`;
}

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n,
  'μs': 1000n,
  ms: 1_000_000n,
  s: NS,
  m: 60n * NS,
  h: 3600n * NS,
};

/** Go's time.ParseDuration: nanoseconds, or undefined when invalid or out of int64 range. */
export function parseGoDuration(input: string): bigint | undefined {
  let s = input;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  // work in units of 1e-9 ns to keep fractions exact, then truncate like Go
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const intPart = m[1];
    const fracPart = m[2];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) return undefined;
    s = s.slice(m[0].length);
    const u = /^(ns|us|µs|μs|ms|s|m|h)/.exec(s);
    if (!u) return undefined;
    s = s.slice(u[0].length);
    const unit = UNIT_NANOS[u[0]];
    let v = BigInt(intPart || '0') * unit;
    if (fracPart) v += (BigInt(fracPart) * unit) / 10n ** BigInt(fracPart.length);
    total += v;
    if (total > 1n << 63n) return undefined;
  }
  if (neg) total = -total;
  if (total > MAX_INT64 || total < MIN_INT64) return undefined;
  return total;
}

/** cel-go's string(duration): seconds with the shortest fraction, suffixed `s`. */
export function formatDuration(d: Duration): string {
  const neg = d.nanos < 0n;
  const abs = neg ? -d.nanos : d.nanos;
  const secs = abs / NS;
  const frac = abs % NS;
  const f = frac ? '.' + frac.toString().padStart(9, '0').replace(/0+$/, '') : '';
  return `${neg ? '-' : ''}${secs}${f}s`;
}

export interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday */
  weekday: number;
  /** 0-based day of the year */
  yearDay: number;
}

function civil(secondsLocal: number): CivilTime {
  const days = Math.floor(secondsLocal / 86400);
  const sod = secondsLocal - days * 86400;
  const { year, month, day } = civilFromDays(days);
  return {
    year,
    month,
    day,
    hour: Math.floor(sod / 3600),
    minute: Math.floor(sod / 60) % 60,
    second: sod % 60,
    weekday: (((days + 4) % 7) + 7) % 7,
    yearDay: days - daysFromCivil(year, 1, 1),
  };
}

/**
 * The civil time of a timestamp in a zone: an IANA name, or a `[+-]HH:MM` offset (cel-go's timeZone). Returns an
 * error message when the zone is unknown.
 */
export function civilTime(t: Timestamp, zone?: string): CivilTime | string {
  const secs = Number(t.seconds);
  // Kubernetes sets cel.DefaultUTCTimeZone: without a zone the accessors read UTC, whatever offset the time had
  if (zone === undefined || zone === '' || zone === 'UTC') return civil(secs);
  const colon = zone.indexOf(':');
  if (colon >= 0) {
    const hs = zone.slice(0, colon);
    const ms = zone.slice(colon + 1);
    if (!/^[+-]?\d+$/.test(hs) || !/^[+-]?\d+$/.test(ms)) return `strconv.Atoi: parsing "${/^[+-]?\d+$/.test(hs) ? ms : hs}": invalid syntax`;
    const h = Number(hs);
    const m = Number(ms);
    const offset = hs.startsWith('-') ? h * 60 - m : h * 60 + m;
    return civil(secs + offset * 60);
  }
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return `unknown time zone ${zone}`;
  }
  const parts = Object.fromEntries(fmt.formatToParts(new Date(secs * 1000)).map((p) => [p.type, p.value]));
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  const local = daysFromCivil(year, Number(parts.month), Number(parts.day)) * 86400 + Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  return civil(local);
}
