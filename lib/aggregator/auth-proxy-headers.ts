import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Who a request is forwarded for (authentication.k8s.io UserInfo). */
export interface ProxiedUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** RFC 7230 token characters besides letters and digits: what a header name may hold unescaped. */
const tokenPunctuation = new Set("!#$%&'*+-.^_`|~");

function isTokenByte(b: number): boolean {
  const c = String.fromCharCode(b);
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || tokenPunctuation.has(c);
}

/**
 * client-go's headerKeyEscape: every byte of the UTF-8 key that may not appear in a header name, and `%` itself, is
 * percent-encoded (upper-case hex), so an extra key such as `acme.com/project` survives as a header name.
 */
export function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    out += isTokenByte(b) && b !== 0x25 ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * client-go's SetAuthProxyHeaders, what kube's aggregator sends to an aggregated API server: `X-Remote-User`, the uid
 * as `X-Remote-Uid` when there is one, one `X-Remote-Group` line per group and one `X-Remote-Extra-<escaped key>` line
 * per extra value; added to `into` when given (a message's other headers).
 */
export function authProxyHeaders(user: ProxiedUser, into: OutgoingHttpHeaders = {}): OutgoingHttpHeaders {
  into['X-Remote-User'] = user.username;
  if (user.uid) into['X-Remote-Uid'] = user.uid;
  if (user.groups.length) into['X-Remote-Group'] = user.groups;
  if (user.extra) {
    for (const key in user.extra) {
      const values = user.extra[key]!;
      if (values.length) into[`X-Remote-Extra-${headerKeyEscape(key)}`] = values;
    }
  }
  return into;
}

/**
 * Whether a client's header says who it is, which the front replaces with the user it authenticated: credentials
 * (kube's authentication filter drops Authorization), impersonation (dropped once applied) and front-proxy headers
 * (SetAuthProxyHeaders stomps them).
 */
export function isClientIdentityHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'authorization' || lower.startsWith('impersonate-') || lower.startsWith('x-remote-');
}

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1, as Go's ReverseProxy drops them): they describe one connection, never the
 * message forwarded; so do the headers the Connection header names.
 */
const hopByHop = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The headers of a message to forward: without hop-by-hop ones, HTTP/2's pseudo-headers (`:path`, `:status`: each
 * hop writes its own), nor those `drop` refuses.
 */
export function forwardedHeaders(headers: IncomingHttpHeaders, drop?: (name: string) => boolean): OutgoingHttpHeaders {
  const connection = headers.connection;
  // most messages name no header in Connection but itself (`keep-alive`, `close`): no set to build then
  const named = connection && connection.includes(',') ? new Set(connection.split(',').map((h) => h.trim().toLowerCase())) : undefined;
  const single = named ? undefined : connection?.trim().toLowerCase();
  const out: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || name.charCodeAt(0) === 0x3a /* : */ || hopByHop.has(name) || name === single || named?.has(name) || drop?.(name)) continue;
    out[name] = value;
  }
  return out;
}
