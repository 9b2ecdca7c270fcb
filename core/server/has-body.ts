import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

/**
 * Whether a request has a body: over HTTP/2, unless its HEADERS frame ended the stream (it need not say a
 * Content-Length); over HTTP/1.1, when it has a Content-Length other than 0 or a Transfer-Encoding (RFC 9112 §6.3).
 */
export function hasBody(req: IncomingMessage): boolean {
  const h2 = (req as unknown as Partial<Http2ServerRequest>).stream;
  if (h2) return !h2.endAfterHeaders;
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}
