import type { AdmissionVariant } from './admission-variant.js';
import { expectStatus, type HttpsClient } from './https-client.js';
import { startServerProcess } from './server-process.js';
import type { WebhookServerSettings } from './webhook-server.js';
import { widget, widgetsCollectionPath } from './widgets.js';

/**
 * Creates with one ValidatingWebhookConfiguration whose webhook (bench/webhook-server.ts, in its own process) allows
 * every widget: what calling a local HTTPS webhook adds to each create. Judged by the p50 latency it adds.
 */
export const webhookVariant: AdmissionVariant = {
  key: 'webhook',
  title: '1 local HTTPS validating webhook',
  judgedByLatency: true,
  async start(ctx) {
    const webhook = await startServerProcess('./webhook-server.js', { pkiDir: ctx.pkiDir } satisfies WebhookServerSettings);
    const setup = async (client: HttpsClient) => {
      const config = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'bench-webhook' },
        webhooks: [
          {
            name: 'allow.bench.kapi.dev',
            clientConfig: { url: `${webhook.url}/validate`, caBundle: Buffer.from(ctx.caCertPem).toString('base64') },
            rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
          },
        ],
      };
      expectStatus(await client.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', config), [201, 409], 'create the webhook configuration');
      // the webhook is in force once it refuses a probe
      const deadline = Date.now() + 30_000;
      for (let i = 0; ; i++) {
        if ((await client.request('POST', widgetsCollectionPath, widget(`probe-deny-${i}`))).status === 400) return;
        if (Date.now() > deadline) throw new Error('the validating webhook is not in force after 30 s');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    return { setup, stop: () => webhook.stop() };
  },
};
