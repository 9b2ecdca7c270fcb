import { CborError } from './cbor-errors.js';

/**
 * The CBOR time tags as kube's decoder turns them into strings (TimeTagToAny: RFC3339Nano): tag 0 holds an RFC 3339
 * text, tag 1 seconds since the epoch. Error texts are Go's (time.Parse, Time.MarshalText) behind fxamacker's prefix.
 */

const layout = '2006-01-02T15:04:05Z07:00';
const unrepresentable = 'cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: Time.MarshalText: ';

/** Tag 0: an RFC 3339 text, re-formatted as Go's RFC3339Nano (fraction without trailing zeros, `Z` for UTC). */
export function rfc3339TagToString(text: string): string {
  const fail = (detail: string) => new CborError(`cbor: cannot set ${text} for time.Time: parsing time ${goQuote(text)}${detail}`);
  const cannotParse = (rest: string, element: string) => fail(` as ${goQuote(layout)}: cannot parse ${goQuote(rest)} as ${goQuote(element)}`);
  let rest = text;
  const fixed = (digits: number, element: string): number => {
    if (!new RegExp(`^\\d{${digits}}`).test(rest)) throw cannotParse(rest, element);
    const n = Number(rest.slice(0, digits));
    rest = rest.slice(digits);
    return n;
  };
  const literal = (s: string) => {
    if (!rest.startsWith(s)) throw cannotParse(rest, s);
    rest = rest.slice(s.length);
  };
  // Go checks each element's range as soon as it is read, and the day against its month at the end.
  const range = (what: string) => fail(`: ${what} out of range`);
  const year = fixed(4, '2006');
  literal('-');
  const month = fixed(2, '01');
  if (month < 1 || month > 12) throw range('month');
  literal('-');
  const day = fixed(2, '02');
  if (day > 31) throw range('day');
  literal('T');
  // Go reads the hour ("15") with one or two digits.
  const hourMatch = /^\d\d?/.exec(rest);
  if (!hourMatch) throw cannotParse(rest, '15');
  const hour = Number(hourMatch[0]);
  if (hour > 23) throw range('hour');
  rest = rest.slice(hourMatch[0].length);
  literal(':');
  const minute = fixed(2, '04');
  if (minute > 59) throw range('minute');
  literal(':');
  const second = fixed(2, '05');
  if (second > 59) throw range('second');
  let fraction = '';
  const frac = /^[.,](\d+)/.exec(rest);
  if (frac) {
    fraction = frac[1]!.slice(0, 9).replace(/0+$/, '');
    rest = rest.slice(frac[0].length);
  }
  let zone = 'Z';
  let zoneHours = 0;
  if (rest.startsWith('Z')) {
    rest = rest.slice(1);
  } else {
    const z = /^([+-])(\d\d):(\d\d)/.exec(rest);
    if (!z) throw cannotParse(rest, 'Z07:00');
    const [, sign, hh, mm] = z;
    zoneHours = Number(hh);
    if (zoneHours > 24) throw range('time zone offset hour');
    if (Number(mm) > 60) throw range('time zone offset minute');
    rest = rest.slice(z[0].length);
    if (zoneHours !== 0 || Number(mm) !== 0) zone = `${sign}${hh}:${mm}`;
  }
  if (rest) throw fail(`: extra text: ${goQuote(rest)}`);
  if (day < 1 || day > daysIn(year, month)) throw range('day');
  if (zoneHours >= 24) throw new CborError(`${unrepresentable}timezone hour outside of range [0,23]`);
  const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`;
  return `${date}${fraction ? '.' + fraction : ''}${zone}`;
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
  const date = new Date(whole * 1000).toISOString().slice(0, 19);
  const fraction = nanos ? '.' + String(nanos).padStart(9, '0').replace(/0+$/, '') : '';
  return `${date}${fraction}Z`;
}

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Go's %q for the printable ASCII these messages carry (JSON quoting matches it there). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}
