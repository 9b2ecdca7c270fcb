/**
 * The string formats kube-apiserver (v1.32) checks in custom resources: the formats its CRD schema conversion keeps
 * (StripUnsupportedFormatsPostProcess; every other format, including int32/int64/float/double, is dropped and so
 * ignored) with the validators of kube-openapi's strfmt registry.
 */
import { parseCivilDate } from '../lib/go/civil-date.js';
import { parseGoDuration } from '../lib/go/duration.js';
import { isCIDRSloppy, isMAC, parseIPText } from './ip-addresses.js';

type Validator = (s: string) => boolean;

const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const DATE_TIME_CLOCK = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_OCTET = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const RGB_COLOR = new RegExp(`^rgb\\(\\s*${RGB_OCTET}\\s*,\\s*${RGB_OCTET}\\s*,\\s*${RGB_OCTET}\\s*\\)$`);

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function isHostname(s: string): boolean {
  if (!HOSTNAME.test(s)) return false;
  if (utf8Length(s) > 255) return false;
  return s.split('.').every((p) => utf8Length(p) <= 63);
}

/** strfmt.IsDate: time.Parse("2006-01-02", s). */
export function isDate(s: string): boolean {
  return parseCivilDate(s) !== undefined;
}

/** strfmt.IsDateTime: a full date, "t", and a clock with zone, compared as kube-openapi does (split on every "t"). */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = DATE_TIME_CLOCK.exec(parts[1]);
  if (!m) return false;
  return m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const SCALA_UNITS: string[][] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt.ParseDuration: Go durations (time.ParseDuration), or Scala-like ones ("3 days", "1 h 30 min"). */
export function isDuration(s: string): boolean {
  if (parseGoDuration(s) !== undefined) return true;
  if (!/^[\t\n\f\r ]*(?:\d+[\t\n\f\r ]*[A-Za-zµ]+[\t\n\f\r ]*)+$/u.test(s)) return false;
  let ok = false;
  for (const match of s.matchAll(/(\d+)[\t\n\f\r ]*([A-Za-zµ]+)/gu)) {
    if (!Number.isSafeInteger(Number(match[1]))) return false;
    const unit = match[2].toLowerCase();
    for (const variants of SCALA_UNITS) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((i === last && unit.startsWith(variant)) || variant.toLowerCase() === unit) ok = true;
      });
    }
  }
  return ok;
}

const ISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/;
const ISBN13 = /^(?:[0-9]{13})$/;

function isISBN(s: string, version: 10 | 13): boolean {
  const sanitized = s.replace(/[\t\n\f\r -]+/g, '');
  if (version === 10) {
    if (!ISBN10.test(sanitized)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(sanitized[i]);
    sum += sanitized[9] === 'X' ? 100 : 10 * Number(sanitized[9]);
    return sum % 11 === 0;
  }
  if (!ISBN13.test(sanitized)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(sanitized[i]);
  return Number(sanitized[12]) - ((10 - (sum % 10)) % 10) === 0;
}

function isCreditCard(s: string): boolean {
  const sanitized = s.replace(/[^0-9]+/g, '');
  if (!CREDIT_CARD.test(sanitized)) return false;
  let sum = 0;
  let double = false;
  for (let i = sanitized.length - 1; i >= 0; i--) {
    let d = Number(sanitized[i]);
    if (double) {
      d *= 2;
      sum += d >= 10 ? (d % 10) + 1 : d;
    } else {
      sum += d;
    }
    double = !double;
  }
  return sum % 10 === 0;
}

/** Characters a host may hold unescaped (Go's url.shouldEscape for hosts). */
const HOST_CHARS = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"%]*$/;
const USERINFO_CHARS = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function validEscapes(s: string): boolean {
  return !/%(?![0-9a-fA-F]{2})/.test(s);
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function validHost(host: string): boolean {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) return false;
    if (!validOptionalPort(host.slice(end + 1))) return false;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(host.slice(colon))) return false;
  }
  if (!validEscapes(host)) return false;
  // only ASCII characters are checked, as Go does
  return HOST_CHARS.test(host.replace(/[^\x00-\x7f]/g, ''));
}

/** Go's url.ParseRequestURI succeeds (an absolute URI, or an absolute path). */
export function isRequestURI(raw: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(raw)) return false;
  if (raw === '') return false;
  if (raw === '*') return true;
  let scheme = '';
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false; // missing protocol scheme
      scheme = raw.slice(0, i);
      rest = raw.slice(i + 1);
    }
    break;
  }
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    const host = at < 0 ? authority : authority.slice(at + 1);
    if (at >= 0 && !USERINFO_CHARS.test(authority.slice(0, at).replace(/[^\x00-\x7f]/g, ''))) return false;
    if (!validHost(host)) return false;
  }
  return validEscapes(rest);
}

const ATEXT = /^[^\x00-\x20\x7f()<>[\]:;@\\,"]$/u;

/** A simplified net/mail.ParseAddress: addr-spec, optionally with a display name and angle brackets. */
export function isEmail(s: string): boolean {
  const p = { s };
  const skipSpace = (): void => {
    p.s = p.s.replace(/^[ \t]+/, '');
  };
  const atom = (dot: boolean, permissive: boolean): string | null => {
    let i = 0;
    const chars = [...p.s];
    let text = '';
    for (; i < chars.length; i++) {
      const ch = chars[i];
      if (ch === '.' ? !dot : !ATEXT.test(ch)) break;
      text += ch;
    }
    if (text === '') return null;
    if (!permissive && (text.startsWith('.') || text.endsWith('.') || text.includes('..'))) return null;
    p.s = p.s.slice(text.length);
    return text;
  };
  const quoted = (): string | null => {
    const m = /^"((?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\[\t\x20-\x7e\u{80}-\u{10ffff}])*)"/u.exec(p.s);
    if (!m) return null;
    p.s = p.s.slice(m[0].length);
    return m[1];
  };
  const addrSpec = (): boolean => {
    const orig = p.s;
    skipSpace();
    if (p.s === '') return false;
    const local = p.s[0] === '"' ? quoted() : atom(true, false);
    if (!local) {
      p.s = orig;
      return false;
    }
    if (!p.s.startsWith('@')) {
      p.s = orig;
      return false;
    }
    p.s = p.s.slice(1);
    skipSpace();
    let domain: string | null;
    if (p.s.startsWith('[')) {
      const m = /^\[([^\x00-\x20\x7f[\]\\]*)\]/u.exec(p.s);
      domain = m && parseIPText(m[1], false) ? m[1] : null;
      if (m) p.s = p.s.slice(m[0].length);
    } else {
      domain = atom(true, false);
    }
    if (domain === null) {
      p.s = orig;
      return false;
    }
    return true;
  };
  const skipComment = (): boolean => {
    skipSpace();
    if (!p.s.startsWith('(')) return true;
    let depth = 0;
    let i = 0;
    for (; i < p.s.length; i++) {
      if (p.s[i] === '\\') i++;
      else if (p.s[i] === '(') depth++;
      else if (p.s[i] === ')' && --depth === 0) break;
    }
    if (depth !== 0) return false;
    p.s = p.s.slice(i + 1);
    skipSpace();
    return true;
  };

  skipSpace();
  if (p.s === '') return false;
  if (addrSpec()) return skipComment() && p.s === '';
  // display-name (a phrase) then angle-addr
  let words = 0;
  while (p.s !== '' && p.s[0] !== '<') {
    skipSpace();
    if (p.s === '' || p.s[0] === '<') break;
    const word = p.s[0] === '"' ? quoted() : atom(true, true);
    if (word === null) break;
    words++;
  }
  skipSpace();
  if (words === 0 && !p.s.startsWith('<')) return false;
  if (!p.s.startsWith('<')) return false;
  p.s = p.s.slice(1);
  if (!addrSpec()) return false;
  if (!p.s.startsWith('>')) return false;
  p.s = p.s.slice(1);
  return skipComment() && p.s === '';
}

const VALIDATORS: Record<string, Validator> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => parseIPText(s, true) && s.includes('.'),
  ipv6: (s) => parseIPText(s, false) && s.includes(':'),
  cidr: isCIDRSloppy,
  mac: isMAC,
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && SSN.test(s),
  hexcolor: (s) => HEX_COLOR.test(s),
  rgbcolor: (s) => RGB_COLOR.test(s),
  byte: (s) => BASE64.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

function normalize(format: string): string {
  return format.replace(/-/g, '');
}

/** The format as kube-apiserver keeps it in a CRD schema: unchanged when supported, '' (no format) otherwise. */
export function effectiveFormat(format: string | undefined): string {
  if (!format) return '';
  return Object.prototype.hasOwnProperty.call(VALIDATORS, normalize(format)) ? format : '';
}

/** The validator of a (supported) format. */
export function formatValidator(format: string): Validator | undefined {
  const key = normalize(format);
  return Object.prototype.hasOwnProperty.call(VALIDATORS, key) ? VALIDATORS[key] : undefined;
}
