/**
 * CEL's timestamps and durations on top of lib/go's Go time (RFC 3339, civil dates): string(duration), and the
 * accessors' time zones given as IANA names or `±HH:MM` offsets.
 */
import { civilFromDays, daysFromCivil, parseCivilDate } from '../go/civil-date.js';
import { formatRFC3339 as formatGoTime, parseRFC3339 as parseGoTime } from '../go/timestamp.js';
import { Duration, Timestamp } from './values.js';

const NS = 1_000_000_000n;

/** Go's time.Parse(time.RFC3339, s) as a CEL timestamp (keeping the offset it was written with); undefined when it does not parse. */
export function parseRFC3339(s: string): Timestamp | undefined {
  const t = parseGoTime(s);
  return t && new Timestamp(BigInt(t.seconds), t.nanos, t.offset);
}

/** An RFC 3339 full-date (`2024-01-31`) as a timestamp at midnight UTC (OpenAPI format `date`). */
export function parseDate(s: string): Timestamp | undefined {
  const d = parseCivilDate(s);
  return d && new Timestamp(BigInt(daysFromCivil(d.year, d.month, d.day)) * 86400n, 0);
}

/** Go's t.Format(time.RFC3339Nano), in the offset the timestamp was written with (`Z` for UTC). */
export function formatRFC3339(t: Timestamp): string {
  return formatGoTime({ seconds: Number(t.seconds), nanos: t.nanos, offset: t.offset });
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
