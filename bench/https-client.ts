import https from 'node:https';

/** A small verifying HTTPS client for the set-up requests (autocannon does the load). */
export interface HttpsClient {
  request(method: string, path: string, body?: unknown): Promise<HttpsResponse>;
}

export interface HttpsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Requests to `baseUrl`, trusting only `caPem`, with `Authorization: Bearer <token>`; object bodies are sent as JSON. */
export function httpsClient(baseUrl: string, caPem: string, token: string): HttpsClient {
  const base = new URL(baseUrl);
  const agent = new https.Agent({ ca: caPem, keepAlive: true });
  return {
    request(method, path, body) {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      return new Promise((resolve, reject) => {
        const req = https.request(
          {
            agent,
            hostname: base.hostname,
            port: base.port,
            method,
            path,
            headers: {
              authorization: `Bearer ${token}`,
              accept: 'application/json',
              ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
  };
}

/** Throws with the response body when the status is not the expected one. */
export function expectStatus(res: HttpsResponse, expected: number[], what: string): void {
  if (!expected.includes(res.status)) throw new Error(`${what}: HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 500)}`);
}
