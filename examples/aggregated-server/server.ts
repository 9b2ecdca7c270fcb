/**
 * An aggregated API server for `metrics.example.com/v1`, run behind a front kapi (or kube-apiserver) that registers it
 * with an APIService: `nodemetrics` computed when read (node-metrics.ts) and `alerts` kept in their own SQLite file
 * (alerts.ts). It trusts the front as an extension API server does: bearer tokens are reviewed at the front
 * (TokenReview), the front proxy's identity headers and the client CA are those the front publishes in
 * kube-system/extension-apiserver-authentication, and the front decides what each user may do (SubjectAccessReview).
 * See README.md for the whole path, from `npm start` to `kubectl get`.
 *
 *   FRONT_KUBECONFIG=.aggregated/front.kubeconfig node dist/examples/aggregated-server/server.js
 *
 * Environment: FRONT_KUBECONFIG (required: the front's API as this server's ServiceAccount), PORT (default 8443),
 * BIND_ADDRESS (default 0.0.0.0), DATA_DIR (default .aggregated: the serving certificate made by prepare.js, the
 * alerts' alerts.db).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApiServer, defaultModules, delegatedAuthentication, delegatedAuthorization, readKubeconfigClient } from '../../index.js';
import { alertsResource } from './alerts.js';
import { nodeMetricsResource } from './node-metrics.js';

const frontKubeconfig = process.env.FRONT_KUBECONFIG;
if (!frontKubeconfig) {
  console.error('FRONT_KUBECONFIG must name a kubeconfig of the front server (see README.md)');
  process.exit(1);
}
const dataDir = process.env.DATA_DIR ?? '.aggregated';

const front = readKubeconfigClient(frontKubeconfig);
const delegation = await delegatedAuthentication({ client: front });
// k8s.io/apiserver's delegating authorization defaults, those of `kapi serve --authorization-kubeconfig`
const authorization = delegatedAuthorization({
  client: front,
  authorizedTtlMs: 10_000,
  unauthorizedTtlMs: 10_000,
  alwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
  alwaysAllowGroups: ['system:masters'],
});
const server = createApiServer({
  // kube's admission plugins but NamespaceLifecycle: namespaces are the front's, which this server does not follow
  config: { admissionPlugins: ['MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook'] },
  modules: [
    // in-memory storage for the built-in kinds every kapi serves; this server's own data is alerts.db
    ...defaultModules({
      storage: 'memory',
      // the published authentication first (front-proxy headers, client certificates), TokenReview at the front last
      authModules: [...(delegation.published ? [delegation.published.module] : []), authorization],
      tokenWebhook: delegation.tokenWebhook,
    }),
    nodeMetricsResource,
    alertsResource(join(dataDir, 'alerts.db')),
  ],
});
const pki = join(dataDir, 'pki');
const { url } = await server.listen({
  port: Number(process.env.PORT ?? 8443),
  host: process.env.BIND_ADDRESS ?? '0.0.0.0',
  tls: { cert: await readFile(join(pki, 'apiserver.crt'), 'utf8'), key: await readFile(join(pki, 'apiserver.key'), 'utf8') },
});
console.log(`kapi (aggregated-server example) serving on ${url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
