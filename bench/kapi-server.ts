/**
 * Child process: the kapi server under test, as `kapi serve` builds it — SQLite storage (WAL, synchronous=FULL; or etcd), the
 * admin bearer token (and `users`' tokens), AlwaysAllow authorization unless `authorization` says RBAC — over HTTPS with the serving certificate from `ensurePki`; with
 * `admissionPlugins`, that many trivial admission plugins besides (bench/admission-throughput.ts).
 */
import { createApiServer, defaultModules, staticTokenAuth, alwaysAllow, rbacAuthorization, type StaticToken } from '../index.js';
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
}

const settings = childSettings<KapiServerSettings>();

await serveUntilStopped(async () => {
  const pki = await ensurePki(settings.pkiDir, { hosts: ['127.0.0.1'] });
  const server = createApiServer({
    modules: [
      ...defaultModules({
        storage: settings.etcd ? 'etcd' : 'sqlite',
        ...(settings.etcd ? { etcd: settings.etcd } : {}),
        dataDir: settings.dataDir,
        authModules: [
          staticTokenAuth([{ token: settings.token, user: adminUser }, ...(settings.users ?? [])]),
          settings.authorization === 'RBAC' ? rbacAuthorization() : alwaysAllow(),
        ],
      }),
      benchAdmissionPlugins(settings.admissionPlugins ?? 0),
    ],
  });
  const { url } = await server.listen({ port: 0, host: '127.0.0.1', tls: { cert: pki.certPem, key: pki.keyPem } });
  return { url, close: () => server.close() };
});
