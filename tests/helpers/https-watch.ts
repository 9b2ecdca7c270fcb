// A raw HTTPS watch to any host:port (e.g. through a tcp-proxy), reading the JSON-lines event stream.
import https from 'node:https';
import type { IncomingMessage } from 'node:http';

export interface RawWatchEvent {
  type: string;
  object: any;
}

export interface RawWatch {
  status: number;
  /** Every event received so far. */
  events: RawWatchEvent[];
  /** Resolves once `count` events have been received in total; rejects on timeout or when the stream ends first. */
  waitForEvents(count: number, timeoutMs?: number): Promise<RawWatchEvent[]>;
  /** Resolves when the stream ended, was cut, or failed. */
  ended: Promise<void>;
  close(): void;
}

export interface RawWatchTarget {
  port: number;
  ca: string;
  token: string;
  host?: string;
}

/** GETs `path` (which should carry `watch=1`) and resolves once the response headers arrived. */
export function openRawWatch(target: RawWatchTarget, path: string): Promise<RawWatch> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: target.host ?? '127.0.0.1',
      port: target.port,
      method: 'GET',
      path,
      ca: target.ca,
      headers: { authorization: `Bearer ${target.token}` },
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      req.off('error', reject);
      req.on('error', () => {
        // a cut connection after the headers: reported through `ended`
      });
      resolve(rawWatch(res, () => req.destroy()));
    });
    req.end();
  });
}

function rawWatch(res: IncomingMessage, destroy: () => void): RawWatch {
  const events: RawWatchEvent[] = [];
  let buffered = '';
  let done = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  const ended = new Promise<void>((resolve) => {
    const finish = () => {
      if (done) return;
      done = true;
      resolve();
      wake();
    };
    res.on('end', finish);
    res.on('close', finish);
    res.on('error', finish);
    res.on('aborted', finish);
  });
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) events.push(JSON.parse(line) as RawWatchEvent);
    }
    wake();
  });
  const summary = () => events.map((e) => `${e.type} ${e.object?.metadata?.name ?? ''}@${e.object?.metadata?.resourceVersion ?? ''}`).join(', ');
  return {
    status: res.statusCode ?? 0,
    events,
    ended,
    close() {
      destroy();
      res.destroy();
    },
    waitForEvents(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.length >= count) {
            cleanup();
            resolve(events.slice(0, count));
          } else if (done) {
            cleanup();
            reject(new Error(`watch ended after ${events.length} of ${count} events: ${summary()}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${events.length} of ${count} events within ${timeoutMs}ms: ${summary()}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
