/**
 * Child process: the kapi server under test, as `kapi serve` builds it — SQLite storage (or etcd), the
 * admin bearer token (and `users`' tokens), AlwaysAllow authorization unless `authorization` says RBAC — over HTTPS with the serving certificate from `ensurePki`; with
 * `admissionPlugins`, that many trivial admission plugins besides (bench/admission-throughput.ts); as a front or a
 * backend of aggregation with `proxyClient` or `requestHeaderCaFile` (bench/aggregation.ts).
 */
import { createApiServer, defaultModules, staticTokenAuth, alwaysAllow, rbacAuthorization, requestHeaderAuth, defaultRequestHeaderNames, frontProxyClientName, type StaticToken } from '../index.js';
import { adminUser, ensurePki } from '../plugins/auth/index.js';
import { childSettings, serveUntilStopped } from './child-ipc.js';
import { benchAdmissionPlugins } from './bench-admission-plugins.js';

export interface KapiServerSettings {
  dataDir: string;
  pkiDir: string;
  token: string;
  /** Trivial admission plugins to register (default none). */
  admissionPlugins?: number;
  /** Store in this etcd instead of SQLite (bench/etcd.ts). */
  etcd?: { endpoints: string[] };
  /** `--authorization-mode` (default AlwaysAllow; bench/authz.ts compares RBAC with it). */
  authorization?: 'AlwaysAllow' | 'RBAC';
  /** More bearer tokens and their users, besides the admin's. */
  users?: StaticToken[];
  /** Where it listens (default 127.0.0.1), and the names its serving certificate is for besides that address. */
  host?: string;
  serverNames?: string[];
  /** Trust the identity headers of front proxies whose certificate (CommonName front-proxy-client) this CA file signs. */
  requestHeaderCaFile?: string;
  /** The client certificate presented to the aggregated API servers it proxies to. */
  proxyClient?: { certPem: string; keyPem: string };
  /** `--enable-priority-and-fairness` (default true; false: max-in-flight, bench/overload.ts compares them). */
  enablePriorityAndFairness?: boolean;
}

const settings = childSettings<KapiServerSettings>();

await serveUntilStopped(async () => {
  const host = settings.host ?? '127.0.0.1';
  const pki = await ensurePki(settings.pkiDir, { hosts: [host, ...(settings.serverNames ?? [])] });
  const server = createApiServer({
    config: {
      ...(settings.proxyClient ? { proxyClient: settings.proxyClient } : {}),
      ...(settings.enablePriorityAndFairness !== undefined ? { enablePriorityAndFairness: settings.enablePriorityAndFairness } : {}),
    },
    modules: [
      ...defaultModules({
        storage: settings.etcd ? 'etcd' : 'sqlite',
        ...(settings.etcd ? { etcd: settings.etcd } : {}),
        dataDir: settings.dataDir,
        authModules: [
          ...(settings.requestHeaderCaFile ? [requestHeaderAuth(settings.requestHeaderCaFile, { ...defaultRequestHeaderNames, allowedNames: [frontProxyClientName] })] : []),
          staticTokenAuth([{ token: settings.token, user: adminUser }, ...(settings.users ?? [])]),
          settings.authorization === 'RBAC' ? rbacAuthorization() : alwaysAllow(),
        ],
      }),
      benchAdmissionPlugins(settings.admissionPlugins ?? 0),
    ],
  });
  const { url } = await server.listen({ port: 0, host, tls: { cert: pki.certPem, key: pki.keyPem } });
  return { url, close: () => server.close() };
});
