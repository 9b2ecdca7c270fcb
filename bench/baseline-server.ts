/**
 * Child process: the baseline — a bare koa 3 app with one route answering the exact bytes (and Content-Type) kapi
 * answers for one GET (of the widget, or of the large list in bench/list-large.ts), over HTTPS with the same `ensurePki`
 * serving certificate. No auth, no storage: what is left is Node's TLS + HTTP stack and koa itself, i.e. the ceiling for
 * a koa-based server on this machine.
 */
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import Koa from 'koa';
import { ensurePki } from '../plugins/auth/index.js';
import { childSettings, serveUntilStopped } from './child-ipc.js';

export interface BaselineServerSettings {
  pkiDir: string;
  /** The one path served (GET); everything else is 404. */
  path: string;
  /** The body; or `bodyFile`, a file holding it, for bodies too large for a command-line argument. */
  body?: string;
  bodyFile?: string;
  contentType: string;
}

const settings = childSettings<BaselineServerSettings>();
const body = settings.bodyFile !== undefined ? await readFile(settings.bodyFile) : settings.body;
if (body === undefined) throw new Error('baseline-server: neither body nor bodyFile given');

await serveUntilStopped(async () => {
  const pki = await ensurePki(settings.pkiDir, { hosts: ['127.0.0.1'] });
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'GET' || ctx.path !== settings.path) return; // koa answers 404
    ctx.status = 200;
    ctx.type = settings.contentType;
    ctx.body = body;
  });
  const server = https.createServer({ cert: pki.certPem, key: pki.keyPem }, app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
});
