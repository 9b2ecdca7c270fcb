/**
 * Bodies over kube's 3 MiB limit: the client gets the 413 Status every time, although it is still sending when the
 * server answers; the server reads and drops a bounded part of the rest, then closes the connection (Connection:
 * close), so an endless upload cannot hold it. kapi runs in a process of its own (`kapi serve`, TLS): in the test's
 * own process the client could not be sending while the server answers.
 */
import test from 'ava';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useKapi } from '../helpers/kapi-process.js';
import { lingerLimits } from '../../core/server/lingering-close.js';

const kapi = useKapi();

const MiB = 1024 * 1024;
const limit = 3 * MiB;
const attempts = 20;

interface Answer {
  /** `413 RequestEntityTooLarge <message>`, or the client's error when no answer came. */
  outcome: string;
  connection?: string;
  /** Ms from the request's start until its connection closed. */
  closedAfterMs: Promise<number>;
}

function target() {
  const { hostname, port } = new URL(kapi.url);
  const token = readFileSync(join(kapi.dataDir, 'admin-token'), 'utf8').trim();
  const ca = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'));
  return { host: hostname, port: Number(port), ca, token };
}

/**
 * Sends `method path` with a body from `write` (which ends the request, or never does), reads the answer and
 * reports how it went.
 */
function send(method: string, path: string, headers: Record<string, string>, write: (req: ReturnType<typeof https.request>) => void): Promise<Answer> {
  const { host, port, ca, token } = target();
  const started = Date.now();
  return new Promise((resolve) => {
    const req = https.request({ host, port, method, path, ca, agent: false, headers: { authorization: `Bearer ${token}`, ...headers } });
    const closedAfterMs = new Promise<number>((resolveClosed) => {
      req.once('socket', (socket) => socket.once('close', () => resolveClosed(Date.now() - started)));
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const status = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve({ outcome: `${res.statusCode} ${status.reason} ${status.message}`, connection: res.headers.connection, closedAfterMs });
      });
    });
    // Once the answer is in, the request may fail to send the rest: that is expected.
    req.on('error', (err) => {
      if (!answered) resolve({ outcome: err.message, closedAfterMs });
    });
    write(req);
  });
}

const tooLarge = `413 RequestEntityTooLarge Request entity too large: limit is ${limit}`;

/** A JSON object of `bytes` bytes. */
function jsonOf(bytes: number): Buffer {
  const head = '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"big"},"spec":{"pad":"';
  const tail = '"}}';
  return Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
}

for (const size of [4, 20]) {
  const body = jsonOf(size * MiB);
  for (const method of ['POST', 'PATCH']) {
    const path = method === 'POST' ? '/api/v1/namespaces' : '/api/v1/namespaces/default';
    const contentType = method === 'POST' ? 'application/json' : 'application/merge-patch+json';
    for (const chunked of [false, true]) {
      test.serial(`${method} of ${size} MiB ${chunked ? 'chunked' : 'with Content-Length'}: the 413 Status arrives every time`, async (t) => {
        const outcomes: Record<string, number> = {};
        for (let i = 0; i < attempts; i++) {
          const headers: Record<string, string> = { 'content-type': contentType, ...(chunked ? {} : { 'content-length': String(body.length) }) };
          const answer = await send(method, path, headers, (req) => {
            if (!chunked) return void req.end(body);
            for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
            req.end();
          });
          const key = answer.outcome === tooLarge ? `${answer.outcome}, Connection: ${answer.connection}` : answer.outcome;
          outcomes[key] = (outcomes[key] ?? 0) + 1;
        }
        t.deepEqual(outcomes, { [`${tooLarge}, Connection: close`]: attempts });
      });
    }
  }
}

test.serial('an endless chunked upload gets its 413, and its connection is closed within the bound', async (t) => {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const answer = await send('POST', '/api/v1/namespaces', { 'content-type': 'application/json' }, (req) => {
    let open = true;
    req.once('close', () => (open = false));
    const more = () => {
      while (open && req.write(chunk));
      if (open) req.once('drain', more);
    };
    req.write('{"pad":"');
    more();
  });
  t.is(answer.outcome, tooLarge);
  const closedAfterMs = await answer.closedAfterMs;
  t.true(closedAfterMs < lingerLimits.ms + 2_000, `closed after ${closedAfterMs} ms`);
});
