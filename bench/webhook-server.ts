/**
 * Child process: a minimal HTTPS admission webhook for the admission benchmark, serving with the run's `ensurePki`
 * certificate. It allows every AdmissionReview (echoing its uid) except widgets named `probe-deny-*`, which the
 * benchmark's set-up creates to learn when the webhook is in force.
 */
import https from 'node:https';
import { ensurePki } from '../plugins/auth/index.js';
import { childSettings, serveUntilStopped } from './child-ipc.js';

export interface WebhookServerSettings {
  pkiDir: string;
}

const settings = childSettings<WebhookServerSettings>();

await serveUntilStopped(async () => {
  const pki = await ensurePki(settings.pkiDir, { hosts: ['127.0.0.1'] });
  const server = https.createServer({ cert: pki.certPem, key: pki.keyPem, keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const allowed = !String(review.request?.name ?? '').startsWith('probe-deny-');
      const response = { uid: review.request?.uid, allowed, ...(allowed ? {} : { status: { message: 'probe refused' } }) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
});
