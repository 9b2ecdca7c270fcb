/**
 * Child process: the kapi server under test, as `kapi serve` builds it — SQLite storage (WAL, synchronous=FULL; or etcd), the
 * admin bearer token, always-allow authorization — over HTTPS with the serving certificate from `ensurePki`; with
 * `admissionPlugins`, that many trivial admission plugins besides (bench/admission-throughput.ts).
 */
import { createApiServer, defaultModules, staticTokenAuth, alwaysAllow } from '../index.js';
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
        authModules: [staticTokenAuth([{ token: settings.token, user: adminUser }]), alwaysAllow()],
      }),
      benchAdmissionPlugins(settings.admissionPlugins ?? 0),
    ],
  });
  const { url } = await server.listen({ port: 0, host: '127.0.0.1', tls: { cert: pki.certPem, key: pki.keyPem } });
  return { url, close: () => server.close() };
});
