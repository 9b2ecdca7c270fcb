import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TestServer } from './test-server.js';

export interface BinaryResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

export interface BinaryRequest {
  body?: Buffer | string;
  /** Sent with a body only. */
  contentType?: string;
  accept?: string;
  /** Further request headers (e.g. If-None-Match). */
  headers?: Record<string, string>;
}

/** One HTTPS request to the test server with the admin token, a body in any wire format, and the answer's raw bytes. */
export function sendBinary(s: TestServer, method: string, path: string, opts: BinaryRequest = {}): Promise<BinaryResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers, authorization: `Bearer ${s.token}` };
    if (opts.accept) headers['accept'] = opts.accept;
    if (opts.body !== undefined) {
      if (opts.contentType) headers['content-type'] = opts.contentType;
      headers['content-length'] = String(Buffer.byteLength(opts.body));
    }
    const req = https.request({ host: '127.0.0.1', port: new URL(s.url).port, method, path, ca: s.ca, headers, agent: false }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
