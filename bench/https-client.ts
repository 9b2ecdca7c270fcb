import https from 'node:https';

/** A small verifying HTTPS client: set-up requests, and loads autocannon cannot drive (per-worker connections). */
export interface HttpsClient {
  /** An object `body` is sent as JSON. */
  request(method: string, path: string, body?: unknown): Promise<HttpsResponse>;
  /** `body` sent as is, in `contentType`. */
  send(method: string, path: string, contentType: string, body: string): Promise<HttpsResponse>;
  /** A GET asking for `accept` (another wire format than JSON). */
  getAs(path: string, accept: string): Promise<HttpsResponse>;
  /**
   * getAs with the body counted (`bytes`), not kept (`body` is its first 500 bytes, for error messages): a large list's
   * client then has no tens of MiB to copy into one buffer at the end, a copy that holds this process's event loop
   * (~135 ms for 22 MiB of fresh pages on a VM) and so delays what else it measures, e.g. /readyz probes.
   */
  countAs(path: string, accept: string): Promise<HttpsResponse>;
  /** A GET of JSON with more request headers (e.g. If-None-Match). */
  getWithHeaders(path: string, headers: Record<string, string>): Promise<HttpsResponse>;
  close(): void;
}

export interface HttpsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Bytes of the body received. */
  bytes: number;
}

/**
 * Requests to `baseUrl`, trusting only `caPem`, with `Authorization: Bearer <token>`, over keep-alive connections
 * (at most `maxSockets`, e.g. 1 for a worker that owns its connection).
 */
export function httpsClient(baseUrl: string, caPem: string, token: string, maxSockets = Infinity): HttpsClient {
  const base = new URL(baseUrl);
  const agent = new https.Agent({ ca: caPem, keepAlive: true, maxSockets });
  const send = (method: string, path: string, contentType?: string, payload?: Buffer, accept = 'application/json', keep = true, more: Record<string, string> = {}): Promise<HttpsResponse> =>
    new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent,
          hostname: base.hostname,
          port: base.port,
          method,
          path,
          headers: {
            authorization: `Bearer ${token}`,
            accept,
            ...more,
            ...(payload ? { 'content-type': contentType, 'content-length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            if (keep || bytes < 500) chunks.push(c);
            bytes += c.length;
          });
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: keep ? body : body.subarray(0, 500), bytes });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return {
    request: (method, path, body) => send(method, path, 'application/json', body === undefined ? undefined : Buffer.from(JSON.stringify(body))),
    send: (method, path, contentType, body) => send(method, path, contentType, Buffer.from(body)),
    getAs: (path, accept) => send('GET', path, undefined, undefined, accept),
    countAs: (path, accept) => send('GET', path, undefined, undefined, accept, false),
    getWithHeaders: (path, headers) => send('GET', path, undefined, undefined, 'application/json', true, headers),
    close: () => agent.destroy(),
  };
}

/** Throws with the response body when the status is not the expected one. */
export function expectStatus(res: HttpsResponse, expected: number[], what: string): void {
  if (!expected.includes(res.status)) throw new Error(`${what}: HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 500)}`);
}
