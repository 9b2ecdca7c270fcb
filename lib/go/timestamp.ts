/**
 * Go's time.Time as RFC 3339 text: time.Parse(time.RFC3339, …) and t.Format(time.RFC3339 / RFC3339Nano), the one
 * parser and formatter every codec, CEL and printer uses.
 */
import { civilFromDays, daysFromCivil, daysIn } from './civil-date.js';
import { goTimeQuote } from './go-values.js';

/** An instant as Go holds it: Unix seconds, nanoseconds in [0, 1e9), and the zone offset (seconds east of UTC). */
export interface GoTime {
  seconds: number;
  nanos: number;
  offset: number;
}

/** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds; kube treats it as "unset". */
export const goZeroTimeUnixSeconds = -62135596800;

const layout = '2006-01-02T15:04:05Z07:00';

/**
 * time.Parse(time.RFC3339, text): the time, or Go's error text (`parsing time "…" as "2006-01-02T15:04:05Z07:00":
 * cannot parse "…" as "01"`, `parsing time "…": month out of range`). Go's strict fast path falls back to its layout
 * parser, whose errors these are and which also takes a one-digit hour, a comma before the fraction, any number of
 * fraction digits (the first nine count) and offsets up to 24 hours or 60 minutes.
 */
export function parseRFC3339OrError(text: string): GoTime | string {
  let rest = text;
  const cannotParse = (element: string, at = rest) => `parsing time ${goTimeQuote(text)} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(at)} as ${goTimeQuote(element)}`;
  const outOfRange = (what: string) => `parsing time ${goTimeQuote(text)}: ${what} out of range`;
  const number = (element: string, width: 1 | 2 | 4): number | undefined => {
    const m = (width === 4 ? /^\d{4}/ : width === 2 ? /^\d\d/ : /^\d\d?/).exec(rest);
    if (!m) return undefined;
    rest = rest.slice(m[0].length);
    return Number(m[0]);
  };
  const literal = (s: string): boolean => {
    if (!rest.startsWith(s)) return false;
    rest = rest.slice(s.length);
    return true;
  };
  const year = number('2006', 4);
  if (year === undefined) return cannotParse('2006');
  if (!literal('-')) return cannotParse('-');
  let at = rest;
  const month = number('01', 2);
  if (month === undefined) return cannotParse('01', at);
  if (month < 1 || month > 12) return outOfRange('month');
  if (!literal('-')) return cannotParse('-');
  at = rest;
  const day = number('02', 2);
  if (day === undefined) return cannotParse('02', at);
  if (!literal('T')) return cannotParse('T');
  at = rest;
  const hour = number('15', 1);
  if (hour === undefined) return cannotParse('15', at);
  if (hour > 23) return outOfRange('hour');
  if (!literal(':')) return cannotParse(':');
  at = rest;
  const minute = number('04', 2);
  if (minute === undefined) return cannotParse('04', at);
  if (minute > 59) return outOfRange('minute');
  if (!literal(':')) return cannotParse(':');
  at = rest;
  const second = number('05', 2);
  if (second === undefined) return cannotParse('05', at);
  if (second > 59) return outOfRange('second');
  let nanos = 0;
  const fraction = /^[.,](\d+)/.exec(rest);
  if (fraction) {
    nanos = Number(fraction[1]!.slice(0, 9).padEnd(9, '0'));
    rest = rest.slice(fraction[0].length);
  }
  let offset = 0;
  if (!literal('Z')) {
    const zone = /^([+-])(\d\d):(\d\d)/.exec(rest);
    if (!zone) return cannotParse('Z07:00');
    const [hours, minutes] = [Number(zone[2]), Number(zone[3])];
    if (minutes > 60) return outOfRange('time zone offset minute');
    if (hours > 24) return outOfRange('time zone offset hour');
    offset = (hours * 3600 + minutes * 60) * (zone[1] === '-' ? -1 : 1);
    rest = rest.slice(zone[0].length);
  }
  if (rest) return `parsing time ${goTimeQuote(text)}: extra text: ${goTimeQuote(rest)}`;
  if (day < 1 || day > daysIn(year, month)) return outOfRange('day');
  return { seconds: daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset, nanos, offset };
}

/** time.Parse(time.RFC3339, text); undefined where Go returns an error. */
export function parseRFC3339(text: string): GoTime | undefined {
  const t = parseRFC3339OrError(text);
  return typeof t === 'string' ? undefined : t;
}

/** time.Time.IsZero. */
export function isZeroTime(t: GoTime): boolean {
  return t.seconds === goZeroTimeUnixSeconds && t.nanos === 0;
}

/** Milliseconds since the epoch (JavaScript's Date value) of a time, sub-millisecond digits dropped. */
export function timeMillis(t: GoTime): number {
  return t.seconds * 1000 + Math.floor(t.nanos / 1e6);
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/**
 * t.Format in RFC 3339 at the time's own offset (`Z` for UTC): `fractionDigits` undefined is RFC3339Nano (the
 * shortest fraction, none when zero), a number prints exactly that many digits (0 for RFC3339, 6 for metav1.MicroTime).
 */
export function formatRFC3339(t: GoTime, fractionDigits?: number): string {
  const local = t.seconds + t.offset;
  const days = Math.floor(local / 86400);
  const secOfDay = local - days * 86400;
  const { year, month, day } = civilFromDays(days);
  const nanos = String(t.nanos).padStart(9, '0');
  const digits = fractionDigits === undefined ? nanos.replace(/0+$/, '') : nanos.slice(0, fractionDigits);
  const off = Math.abs(t.offset);
  const zone = t.offset === 0 ? 'Z' : `${t.offset < 0 ? '-' : '+'}${p2(Math.floor(off / 3600))}:${p2(Math.floor(off / 60) % 60)}`;
  const date = `${String(year).padStart(4, '0')}-${p2(month)}-${p2(day)}`;
  const clock = `${p2(Math.floor(secOfDay / 3600))}:${p2(Math.floor(secOfDay / 60) % 60)}:${p2(secOfDay % 60)}`;
  return `${date}T${clock}${digits ? '.' + digits : ''}${zone}`;
}

/** A JavaScript Date as metav1.Time writes it: RFC 3339 in UTC, whole seconds. */
export function formatDateRFC3339(d: Date): string {
  return formatRFC3339({ seconds: Math.floor(d.getTime() / 1000), nanos: 0, offset: 0 }, 0);
}
