/**
 * The fuzzer's HTTPS client: keep-alive connections (as many as the fuzzer's concurrency), the admin bearer token,
 * answers in JSON, each answer timed (to its headers and to its end) and cut when it streams or takes too long.
 */
import https from 'node:https';
import { percentEncode } from './random.js';

export interface FuzzRequest {
  method: string;
  path: string;
  contentType?: string;
  body?: Buffer;
  /** A watch: cut the answer after `streamMs`. */
  stream?: boolean;
  /** Keep the whole body (default: its first 64 KiB). */
  wholeBody?: boolean;
}

export interface FuzzAnswer {
  /** 0 when no answer came (the connection failed or `giveUpMs` passed). */
  status: number;
  headersMs: number;
  totalMs: number;
  /** The body, or its first 64 KiB. */
  body: Buffer;
  error?: string;
}

const keepBytes = 64 * 1024;
const streamMs = 1500;
const giveUpMs = 15_000;

export interface FuzzClient {
  send(req: FuzzRequest): Promise<FuzzAnswer>;
  /** A request whose JSON answer is wanted (set-up and checks); throws on no answer. */
  json(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): void;
}

export function fuzzClient(url: string, ca: string, token: string, maxSockets: number): FuzzClient {
  const base = new URL(url);
  const agent = new https.Agent({ ca, keepAlive: true, maxSockets });
  const send = (r: FuzzRequest): Promise<FuzzAnswer> =>
    new Promise((resolve) => {
      const start = performance.now();
      let headersMs = 0;
      let status = 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      let settled = false;
      const finish = (error?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(giveUp);
        resolve({ status, headersMs, totalMs: performance.now() - start, body: Buffer.concat(chunks), ...(error && status === 0 ? { error } : {}) });
      };
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (r.body) {
        headers['content-type'] = r.contentType ?? 'application/json';
        headers['content-length'] = String(r.body.length);
      }
      // Node sends only the characters U+0021..U+00FF in a path as they are; others go percent-encoded.
      const path = r.path.replace(/[^\u0021-\u00ff]/gu, percentEncode);
      const req = https.request({ agent, host: base.hostname, port: base.port, method: r.method, path, headers });
      const giveUp = setTimeout(() => {
        req.destroy();
        finish(`no answer within ${giveUpMs} ms`);
      }, giveUpMs);
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        headersMs = performance.now() - start;
        if (r.stream) setTimeout(() => { res.destroy(); finish(); }, streamMs).unref();
        res.on('data', (c: Buffer) => {
          if (r.wholeBody) chunks.push(c);
          else if (kept < keepBytes) chunks.push(c.subarray(0, keepBytes - kept));
          kept += c.length;
        });
        res.on('end', () => finish());
        res.on('close', () => finish());
        res.on('error', () => finish());
      });
      // The server may answer (413, 400) before it read the whole body: an error after the answer is expected.
      req.on('error', (err) => finish(err.message));
      req.end(r.body);
    });
  return {
    send,
    async json(method, path, body) {
      const a = await send({ method, path, wholeBody: true, ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }) });
      if (a.status === 0) throw new Error(`${method} ${path}: ${a.error}`);
      const text = a.body.toString('utf8');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      return { status: a.status, body: parsed };
    },
    close: () => agent.destroy(),
  };
}
