// A raw HTTPS watch to any host:port (e.g. through a tcp-proxy), reading the JSON-lines event stream.
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { watchStream, type WatchStream } from './test-server.js';

export interface RawWatchTarget {
  port: number;
  ca: string;
  token: string;
  host?: string;
}

/** GETs `path` (which should carry `watch=1`) and resolves once the response headers arrived. */
export function openRawWatch(target: RawWatchTarget, path: string): Promise<WatchStream> {
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
      resolve(watchStream(res, () => req.destroy()));
    });
    req.end();
  });
}
