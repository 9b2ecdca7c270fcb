/**
 * Child process: the watch clients of the codec benchmark (bench/codecs.ts). It opens N watches in one wire format,
 * each over its own TLS connection, and counts the events and bytes that reach it (bench/stream-frames.ts), noting
 * when the last event arrived. Times are `process.hrtime` milliseconds, comparable with the parent's.
 */
import https from 'node:https';
import type { ClientRequest } from 'node:http';
import { answerCalls } from './helper-child.js';
import { frameCounter, type StreamFormat } from './stream-frames.js';

export interface CodecWatchClientsSettings {
  url: string;
  caCertPem: string;
  token: string;
}

export type CodecWatchClientsCall =
  /** Opens `count` watches of `path` with `accept`, `concurrency` handshakes at a time; answers the failures. */
  | { method: 'open'; path: string; accept: string; format: StreamFormat; count: number; concurrency: number }
  /** Events and bytes received so far over all watches, the arrival time of the last event and the Content-Type seen. */
  | { method: 'received' }
  | { method: 'cpuMicros' }
  | { method: 'close' };

export interface Received {
  events: number;
  bytes: number;
  lastEventMs: number;
  /** Watches the server ended before the clients closed them. */
  ended: number;
  contentType: string;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

const settings = JSON.parse(process.argv[2] ?? '') as CodecWatchClientsSettings;
const base = new URL(settings.url);
const agent = new https.Agent({ ca: settings.caCertPem, keepAlive: false, maxSockets: Infinity, maxTotalSockets: Infinity });
const requests: ClientRequest[] = [];
const received: Received = { events: 0, bytes: 0, lastEventMs: 0, ended: 0, contentType: '' };
let closing = false;

function openOne(path: string, accept: string, format: StreamFormat): Promise<string | undefined> {
  return new Promise((resolve) => {
    const count = frameCounter(format);
    const req = https.request(
      { agent, hostname: base.hostname, port: base.port, method: 'GET', path, headers: { authorization: `Bearer ${settings.token}`, accept } },
      (res) => {
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
          return;
        }
        received.contentType = String(res.headers['content-type'] ?? '');
        res.on('data', (c: Buffer) => {
          received.bytes += c.length;
          const n = count(c);
          if (n) {
            received.events += n;
            received.lastEventMs = nowMs();
          }
        });
        res.once('end', () => {
          if (!closing) received.ended++;
        });
        res.once('error', () => undefined);
        resolve(undefined);
      },
    );
    requests.push(req);
    req.on('error', (err) => {
      if (!closing) resolve(String(err));
    });
    req.end();
  });
}

async function open(call: Extract<CodecWatchClientsCall, { method: 'open' }>): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < call.count) {
      next++;
      const failure = await openOne(call.path, call.accept, call.format);
      if (failure !== undefined) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: Math.min(call.concurrency, call.count) }, lane));
  return failures;
}

async function handle(call: CodecWatchClientsCall): Promise<unknown> {
  switch (call.method) {
    case 'open':
      return open(call);
    case 'received':
      return { ...received };
    case 'cpuMicros': {
      const u = process.cpuUsage();
      return u.user + u.system;
    }
    case 'close':
      closing = true;
      for (const r of requests) r.destroy();
      setImmediate(() => process.exit(0));
      return undefined;
  }
}

answerCalls<CodecWatchClientsCall>(handle);
