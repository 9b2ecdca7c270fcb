import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { TLSSocket } from 'node:tls';

/** Whether the request came over HTTP/2 (node:http2's compatibility request). */
export function isHttp2(req: IncomingMessage | Http2ServerRequest): req is Http2ServerRequest {
  return req.httpVersionMajor >= 2;
}

/**
 * The connection's TLS socket, one object for all the requests on it. Over HTTP/2 `req.socket` is a new stand-in per
 * stream (it forwards to the session's socket), so what is cached per connection, such as a verified client
 * certificate, is keyed by the session's socket instead.
 */
export function connectionSocket(req: IncomingMessage | Http2ServerRequest): TLSSocket {
  return (isHttp2(req) ? req.stream.session?.socket ?? req.socket : req.socket) as TLSSocket;
}

/**
 * Gives an HTTP/2 request `headersDistinct` (every value of each header, by lower-case name), which node:http2's
 * compatibility request lacks and HTTP/1.1 requests have: impersonation and request-header authentication read
 * repeated headers from it. Built on first read, as Node builds HTTP/1.1's: most requests never read it.
 */
export function addHeadersDistinct(req: Http2ServerRequest): void {
  if ('headersDistinct' in req) return;
  let distinct: NodeJS.Dict<string[]> | undefined;
  Object.defineProperty(req, 'headersDistinct', { get: () => (distinct ??= distinctHeaders(req.rawHeaders)) });
}

function distinctHeaders(raw: readonly string[]): NodeJS.Dict<string[]> {
  const distinct: NodeJS.Dict<string[]> = Object.create(null);
  for (let i = 0; i + 1 < raw.length; i += 2) (distinct[raw[i]!.toLowerCase()] ??= []).push(raw[i + 1]!);
  return distinct;
}
