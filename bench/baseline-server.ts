/**
 * Child process: the baseline — a bare koa 3 app with one route answering the exact bytes (and Content-Type) kapi
 * answers for GET of the widget, over HTTPS with the same `ensurePki` serving certificate. No auth, no storage: what is
 * left is Node's TLS + HTTP stack and koa itself, i.e. the ceiling for a koa-based server on this machine.
 */
import https from 'node:https';
import Koa from 'koa';
import { ensurePki } from '../plugins/auth/index.js';
import { childSettings, serveUntilStopped } from './child-ipc.js';

export interface BaselineServerSettings {
  pkiDir: string;
  /** The one path served (GET); everything else is 404. */
  path: string;
  body: string;
  contentType: string;
}

const settings = childSettings<BaselineServerSettings>();

await serveUntilStopped(async () => {
  const pki = await ensurePki(settings.pkiDir, { hosts: ['127.0.0.1'] });
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'GET' || ctx.path !== settings.path) return; // koa answers 404
    ctx.status = 200;
    ctx.type = settings.contentType;
    ctx.body = settings.body;
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
