import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  adminUser,
  alwaysAllow,
  alwaysDeny,
  rbacAuthorization,
  clientUrl,
  createApiServer,
  defaultModules,
  ensureAdminToken,
  ensurePki,
  ensureServiceAccountSigningKey,
  readServiceAccountPublicKeys,
  readServiceAccountSigningKey,
  staticTokenAuth,
  writeKubeconfig,
  type ApiServer,
  type Module,
  type ServiceAccountTokenConfig,
} from '../index.js';
import { parseServeFlags, serveUsage, type AuthorizationMode, type ServeOptions, type ServiceAccountServeOptions } from './serve-flags.js';

/** `kapi serve`: runs the server until SIGINT or SIGTERM. Resolves with the exit code. */
export async function serve(args: string[]): Promise<number> {
  const opts = parseServeFlags(args);
  if (opts === 'help') {
    process.stdout.write(serveUsage);
    return 0;
  }
  const server = await start(opts);
  await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

async function start(opts: ServeOptions): Promise<ApiServer> {
  await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
  // Also when it already existed with a wider mode: it holds the CA key, the admin token and the database.
  await chmod(opts.dataDir, 0o700);
  const pki = await ensurePki(join(opts.dataDir, 'pki'), { hosts: [opts.bindAddress] });
  const token = await ensureAdminToken(opts.dataDir);
  const serviceAccountTokens = await serviceAccountTokenConfig(opts.dataDir, opts.serviceAccounts);
  const server = createApiServer({
    config: {
      ...(opts.admissionPlugins ? { admissionPlugins: opts.admissionPlugins } : {}),
      ...(opts.compactionIntervalMs !== undefined ? { compactionIntervalMs: opts.compactionIntervalMs } : {}),
      ...(opts.watchCacheHistoryBytes !== undefined ? { watchCache: { historyMaxBytes: opts.watchCacheHistoryBytes } } : {}),
    },
    modules: defaultModules({
      storage: opts.storage,
      dataDir: opts.dataDir,
      ...(opts.etcd ? { etcd: opts.etcd } : {}),
      crdPaths: opts.crdPaths,
      ...(opts.admissionControlConfigFile ? { admissionControlConfigFile: opts.admissionControlConfigFile } : {}),
      ...(opts.eventTtlMs !== undefined ? { eventTtlMs: opts.eventTtlMs } : {}),
      services: {
        ...(opts.serviceClusterIPRange !== undefined ? { serviceClusterIPRange: opts.serviceClusterIPRange } : {}),
        ...(opts.serviceNodePortRange !== undefined ? { serviceNodePortRange: opts.serviceNodePortRange } : {}),
      },
      authModules: [staticTokenAuth([{ token, user: adminUser }]), ...opts.authorizationModes.map(authorizer)],
      serviceAccountTokens,
    }),
  });
  const { host, port } = await listen(server, opts, pki);
  const url = clientUrl(host, port);
  const kubeconfigPath = join(opts.dataDir, 'kubeconfig');
  await writeKubeconfig(kubeconfigPath, {
    server: url,
    caCertPem: pki.caCertPem,
    token,
    clusterName: 'kapi',
    userName: 'kapi-admin',
    contextName: 'kapi',
  });
  process.stdout.write(`kapi serving on ${url}\nexport KUBECONFIG=${shellQuote(kubeconfigPath)}\n`);
  return server;
}

const authorizers: Record<AuthorizationMode, () => Module> = { RBAC: rbacAuthorization, AlwaysAllow: alwaysAllow, AlwaysDeny: alwaysDeny };

/** The authorizer module of an `--authorization-mode` value. */
function authorizer(mode: AuthorizationMode): Module {
  return authorizers[mode]();
}

/** The token settings from the flags, with the signing key kept in the data directory unless a file is given. */
async function serviceAccountTokenConfig(dataDir: string, o: ServiceAccountServeOptions): Promise<ServiceAccountTokenConfig> {
  const signingKey = o.signingKeyFile ? await readServiceAccountSigningKey(o.signingKeyFile) : await ensureServiceAccountSigningKey(join(dataDir, 'pki', 'sa.key'));
  const verificationKeys = (await Promise.all(o.keyFiles.map((f) => readServiceAccountPublicKeys(f)))).flat();
  return {
    issuers: o.issuers,
    audiences: o.audiences,
    signingKey,
    verificationKeys,
    maxExpirationSeconds: o.maxExpirationSeconds,
    ...(o.jwksUri ? { jwksUri: o.jwksUri } : {}),
  };
}

async function listen(server: ApiServer, opts: ServeOptions, tls: { certPem: string; keyPem: string }) {
  try {
    return await server.listen({
      port: opts.port,
      host: opts.bindAddress,
      tls: {
        cert: tls.certPem,
        key: tls.keyPem,
        ...(opts.tlsCipherSuites ? { cipherSuites: opts.tlsCipherSuites } : {}),
        ...(opts.tlsMinVersion ? { minVersion: opts.tlsMinVersion } : {}),
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`cannot listen on ${opts.bindAddress}:${opts.port}: address already in use`);
    }
    throw err;
  }
}

/** Leaves plain paths as they are; quotes others so the printed line can be pasted into a shell. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
