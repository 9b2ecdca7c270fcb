/**
 * Kubernetes' URL library (`url`, `isURL`, `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`,
 * `getQuery`) over a port of Go's net/url parsing (ParseRequestURI to accept, Parse to decompose).
 */
import { global, member, type EstimateArg, type FunctionRegistry } from './functions.js';
import { STRING_TRAVERSAL_COST_FACTOR, factorRange, traversalCost } from './stdlib.js';
import { T } from './types.js';
import { CelError, LiteralMap, OpaqueValue, actualSize, type Val, type Value } from './values.js';

export const URL_TYPE = T.opaque('kubernetes.URL');

interface GoURL {
  scheme: string;
  opaque: string;
  host: string;
  path: string;
  rawPath: string;
  rawQuery: string;
  fragment: string;
}

type Mode = 'path' | 'host' | 'zone' | 'query' | 'fragment';

const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

function shouldEscape(c: string, mode: Mode): boolean {
  if (/^[A-Za-z0-9]$/.test(c)) return false;
  if ((mode === 'host' || mode === 'zone') && "!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    if (mode === 'path') return c === '?';
    if (mode === 'query') return true;
    if (mode === 'fragment') return false;
  }
  if (mode === 'fragment' && "!()*".includes(c)) return false;
  return true;
}

class URLError extends Error {}

function unescape(s: string, mode: Mode): string {
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) throw new URLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      if (mode === 'host' && parseInt(s[i + 1], 16) < 8 && s.slice(i, i + 3) !== '%25') throw new URLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new URLError(`invalid character ${JSON.stringify(c)} in host name`);
      }
      i++;
    }
  }
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    if (s[i] === '%') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else if (s[i] === '+' && mode === 'query') {
      bytes.push(0x20);
      i++;
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...enc.encode(ch));
      i += ch.length;
    }
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    if (b < 0x80 && !shouldEscape(c, mode)) out += c;
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new URLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${JSON.stringify(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${JSON.stringify(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new URLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function parseInternal(raw: string, viaRequest: boolean): GoURL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new URLError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new URLError('empty url');
  const u: GoURL = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '', fragment: '' };
  if (raw === '*') {
    u.path = '*';
    return u;
  }
  let [scheme, rest] = getScheme(raw);
  u.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      u.opaque = rest;
      return u;
    }
    if (viaRequest) throw new URLError('invalid URI for request');
    const seg = rest.split('/')[0];
    if (seg.includes(':')) throw new URLError('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    const at = authority.lastIndexOf('@');
    u.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0 && !/^[A-Za-z0-9\-._~!$&'()*+,;=%@:]*$/.test(authority.slice(0, at))) throw new URLError('net/url: invalid userinfo');
  }
  u.path = unescape(rest, 'path');
  u.rawPath = escape(u.path, 'path') === rest ? '' : rest;
  return u;
}

/** Go's url.ParseRequestURI; throws with Go's error text. */
function parseRequestURI(raw: string): GoURL {
  try {
    return parseInternal(raw, true);
  } catch (e) {
    if (e instanceof URLError) throw new URLError(`parse ${JSON.stringify(raw)}: ${e.message}`);
    throw e;
  }
}

/** Go's url.Parse. */
function parseURL(raw: string): GoURL {
  const hash = raw.indexOf('#');
  const main = hash < 0 ? raw : raw.slice(0, hash);
  try {
    const u = parseInternal(main, false);
    if (hash >= 0) u.fragment = unescape(raw.slice(hash + 1), 'fragment');
    return u;
  } catch (e) {
    if (e instanceof URLError) throw new URLError(`parse ${JSON.stringify(main)}: ${e.message}`);
    throw e;
  }
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = hostPort.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(hostPort.slice(colon))) {
    host = hostPort.slice(0, colon);
    port = hostPort.slice(colon + 1);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) return false;
  }
  return true;
}

function escapedPath(u: GoURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path')) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath;
    } catch {
      // fall through
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

function parseQuery(raw: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    const v = eq < 0 ? '' : part.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = unescape(k, 'query');
      value = unescape(v, 'query');
    } catch {
      continue;
    }
    const list = m.get(key) ?? [];
    list.push(value);
    m.set(key, list);
  }
  return m;
}

export class URLValue extends OpaqueValue {
  readonly typeName = 'kubernetes.URL';
  constructor(
    readonly raw: string,
    readonly url: GoURL,
  ) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof URLValue && other.raw === this.raw;
  }
}

function toURL(s: string): Val {
  try {
    parseRequestURI(s);
    return new URLValue(s, parseURL(s));
  } catch (e) {
    if (e instanceof URLError) return new CelError(`URL parse error during conversion from string: ${e.message}`);
    throw e;
  }
}

/** Whether Go's url.ParseRequestURI accepts the string. */
export function isRequestURI(s: string): boolean {
  return isURL(s);
}

function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch (e) {
    if (e instanceof URLError) return false;
    throw e;
  }
}

export function registerKubernetesURLs(r: FunctionRegistry): void {
  const strCost = (a: Value[]): number => traversalCost(actualSize(a[0]));
  const strEstimate = (a: EstimateArg[]): { cost: { min: number; max: number } } => ({ cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR) });
  r.add('url', global('string_to_url', [T.string], URL_TYPE, (a) => toURL(a[0] as string), { cost: strCost, estimate: strEstimate }));
  r.add('isURL', global('is_url_string', [T.string], T.bool, (a) => isURL(a[0] as string), { cost: strCost, estimate: strEstimate }));
  const u = (a: Value[]): GoURL => (a[0] as URLValue).url;
  r.add('getScheme', member('url_get_scheme', [URL_TYPE], T.string, (a) => u(a).scheme));
  r.add('getHost', member('url_get_host', [URL_TYPE], T.string, (a) => u(a).host));
  r.add('getHostname', member('url_get_hostname', [URL_TYPE], T.string, (a) => splitHostPort(u(a).host)[0]));
  r.add('getPort', member('url_get_port', [URL_TYPE], T.string, (a) => splitHostPort(u(a).host)[1]));
  r.add('getEscapedPath', member('url_get_escaped_path', [URL_TYPE], T.string, (a) => escapedPath(u(a))));
  r.add(
    'getQuery',
    member('url_get_query', [URL_TYPE], T.map(T.string, T.list(T.string)), (a) => {
      const m = new LiteralMap();
      for (const [k, v] of parseQuery(u(a).rawQuery)) m.set(k, v as Value[]);
      return m;
    }),
  );
}
