import type { X509Certificate } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  adminUser,
  alwaysAllow,
  auditLog,
  auditModule,
  alwaysDeny,
  rbacAuthorization,
  webhookAuthorization,
  authorizationConfig,
  delegatedAuthorization,
  clientUrl,
  createApiServer,
  defaultModules,
  ensureAdminToken,
  ensurePki,
  ensureFrontProxyPki,
  frontProxyClientName,
  readProxyClientCertificate,
  ProxyClientCertificateError,
  ensureServiceAccountSigningKey,
  readServiceAccountPublicKeys,
  readServiceAccountSigningKey,
  staticTokenAuth,
  tokenFileAuth,
  readTokenFile,
  x509ClientCertAuth,
  requestHeaderAuth,
  writeKubeconfig,
  TokenFileError,
  ClientCaError,
  ClientCaFile,
  clusterAuthenticationTrust,
  defaultRequestHeaderNames,
  type ClusterAuthenticationTrustOptions,
  type Module,
  type ApiServer,
  type ServiceAccountTokenConfig,
  configureLogging,
} from '../index.js';
import { effectiveFlags, parseServeFlags, serveUsage, type AuthorizationMode, type ServeOptions, type ServiceAccountServeOptions } from './serve-flags.js';
import { UsageError } from './usage-error.js';
import { parsePemCertificates } from '../lib/x509/pem-bundle.js';
import { authenticationDelegation, type AuthenticationDelegation } from './authentication-delegation.js';

/** `kapi serve`: runs the server until SIGINT or SIGTERM, then shuts it down gracefully. Resolves with the exit code. */
export async function serve(args: string[]): Promise<number> {
  const opts = parseServeFlags(args);
  if (opts === 'help') {
    process.stdout.write(serveUsage);
    return 0;
  }
  if (opts.logging) configureLogging(opts.logging);
  // Listened for before the server says it is serving: a signal sent as soon as it has must not meet Node's default
  // (the process killed at once, no graceful shutdown) in the moment before a listener would be in place.
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const server = await start(opts, effectiveFlags(args));
  await signalled;
  // A second signal exits at once, as kube-apiserver does.
  const exitNow = () => process.exit(1);
  process.once('SIGINT', exitNow);
  process.once('SIGTERM', exitNow);
  await server.shutdown(opts.shutdown);
  return 0;
}

/** Starts the server; `flags` is its command line as /flagz lists it. */
async function start(opts: ServeOptions, flags: Record<string, string>): Promise<ApiServer> {
  await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
  // Also when it already existed with a wider mode: it holds the CA key, the admin token and the database.
  await chmod(opts.dataDir, 0o700);
  const pki = await ensurePki(join(opts.dataDir, 'pki'), { hosts: [opts.bindAddress] });
  const token = await ensureAdminToken(opts.dataDir);
  const serviceAccountTokens = await serviceAccountTokenConfig(opts.dataDir, opts.serviceAccounts, pki.caCertPem);
  const delegation = await authenticationDelegation(opts, serviceAccountTokens.audiences);
  const authenticators = await authenticationModules(opts, token, delegation);
  const frontProxy = await frontProxyConfig(opts);
  const published = clusterAuthenticationTrust(await usageChecked(() => publishedAuthentication(opts, frontProxy.frontProxyCaPem)));
  const server = createApiServer({
    config: {
      ...frontProxy,
      ...(opts.admissionPlugins ? { admissionPlugins: opts.admissionPlugins } : {}),
      ...(opts.compactionIntervalMs !== undefined ? { compactionIntervalMs: opts.compactionIntervalMs } : {}),
      ...(opts.watchCacheHistoryBytes !== undefined ? { watchCache: { historyMaxBytes: opts.watchCacheHistoryBytes } } : {}),
      anonymousAuth: opts.anonymousAuth,
      ...(opts.runtimeConfig ? { runtimeConfig: opts.runtimeConfig } : {}),
      flags,
      maxRequestsInflight: opts.maxRequestsInflight,
      maxMutatingRequestsInflight: opts.maxMutatingRequestsInflight,
      enablePriorityAndFairness: opts.enablePriorityAndFairness,
      ...(opts.http2MaxStreamsPerConnection !== undefined ? { http2MaxStreamsPerConnection: opts.http2MaxStreamsPerConnection } : {}),
    },
    modules: defaultModules({
      storage: opts.storage,
      dataDir: opts.dataDir,
      ...(opts.etcd ? { etcd: opts.etcd } : {}),
      crdPaths: opts.crdPaths,
      ...(opts.admissionControlConfigFile ? { admissionControlConfigFile: opts.admissionControlConfigFile } : {}),
      ...(opts.authenticationConfigFile
        ? { authenticationConfig: { configFile: opts.authenticationConfigFile, ...(opts.oidcSigningAlgorithms ? { signingAlgorithms: opts.oidcSigningAlgorithms } : {}) } }
        : {}),
      ...(opts.encryptionProviderConfig
        ? { encryptionProviderConfig: opts.encryptionProviderConfig, encryptionProviderConfigAutomaticReload: opts.encryptionProviderConfigAutomaticReload ?? false }
        : {}),
      ...(opts.eventTtlMs !== undefined ? { eventTtlMs: opts.eventTtlMs } : {}),
      services: {
        ...(opts.serviceClusterIPRange !== undefined ? { serviceClusterIPRange: opts.serviceClusterIPRange } : {}),
        ...(opts.serviceNodePortRange !== undefined ? { serviceNodePortRange: opts.serviceNodePortRange } : {}),
      },
      authModules: [...authenticators, ...authorizationModules(opts)],
      serviceAccountTokens,
      ...(delegation.tokenWebhook ? { tokenWebhook: delegation.tokenWebhook } : {}),
    }).concat(auditModules(opts), published),
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

/**
 * The client certificate presented to aggregated API servers, and the CA to publish for them: the given pair (the CA
 * is then `--requestheader-client-ca-file`'s, as kube publishes that file) or the front-proxy PKI kept in the data
 * directory.
 */
async function frontProxyConfig(opts: ServeOptions): Promise<{ proxyClient: { certPem: string; keyPem: string }; frontProxyCaPem?: string }> {
  if (!opts.proxyClient) {
    const generated = await ensureFrontProxyPki(join(opts.dataDir, 'pki'));
    return { proxyClient: { certPem: generated.certPem, keyPem: generated.keyPem }, frontProxyCaPem: generated.caCertPem };
  }
  try {
    const proxyClient = await readProxyClientCertificate(opts.proxyClient.certFile, opts.proxyClient.keyFile);
    return { proxyClient, ...(opts.requestHeader ? { frontProxyCaPem: await readFile(opts.requestHeader.clientCaFile, 'utf8') } : {}) };
  } catch (err) {
    if (err instanceof ProxyClientCertificateError) throw new UsageError(err.message);
    throw err;
  }
}

/** The audit policy and log, when the flags name them (kube: without a policy nothing is audited). */
function auditModules(opts: ServeOptions): Module[] {
  return [...(opts.auditPolicy ? [auditModule({ policy: opts.auditPolicy })] : []), ...(opts.auditLog ? [auditLog(opts.auditLog)] : [])];
}

/**
 * The authenticators before the ServiceAccount tokens', in kube's order: front-proxy request headers, client
 * certificates (of the flags', or of what a front server publishes), then bearer tokens (the admin token, then the
 * token file). A client CA or token file kube would refuse is a usage error.
 */
function authenticationModules(opts: ServeOptions, adminToken: string, delegation: AuthenticationDelegation): Promise<Module[]> {
  return usageChecked(async () => [
    ...(opts.requestHeader ? [requestHeaderAuth(opts.requestHeader.clientCaFile, opts.requestHeader)] : []),
    ...(delegation.published ? [delegation.published.module] : []),
    ...(delegation.published?.clientCa ? [] : [x509ClientCertAuth(clientCaFile(opts))]),
    staticTokenAuth([{ token: adminToken, user: adminUser }]),
    ...(opts.tokenAuthFile ? [tokenFileAuth(await readTokenFile(opts.tokenAuthFile))] : []),
  ]);
}

/** The client CA file kapi trusts: `--client-ca-file`, else its own CA. */
function clientCaFile(opts: ServeOptions): string {
  return opts.clientCaFile ?? join(opts.dataDir, 'pki', 'ca.crt');
}

/**
 * What kapi publishes in `kube-system/extension-apiserver-authentication` for extension API servers: its client CA
 * and its front-proxy configuration: the `--requestheader-*` CA and names (kube's defaults without names) or, without
 * `--requestheader-client-ca-file`, the front-proxy CA kapi generated for its own proxy client certificate, allowing
 * that certificate's CommonName only — so a kapi backend with `--authentication-kubeconfig` trusts this front as it is.
 */
function publishedAuthentication(opts: ServeOptions, frontProxyCaPem: string | undefined): ClusterAuthenticationTrustOptions {
  const rh = opts.requestHeader;
  const generatedCa = frontProxyCaPem === undefined ? undefined : parsePemCertificates(frontProxyCaPem);
  const requestHeaderCa: { current(): X509Certificate[] } | undefined = rh ? new ClientCaFile(rh.clientCaFile) : generatedCa && { current: () => generatedCa };
  const allowedNames = rh ? rh.allowedNames : [frontProxyClientName];
  const clientCa = new ClientCaFile(clientCaFile(opts));
  return {
    clientCa: () => clientCa.current(),
    ...(requestHeaderCa
      ? {
          requestHeader: {
            ca: () => requestHeaderCa.current(),
            allowedNames,
            usernameHeaders: rh?.usernameHeaders ?? defaultRequestHeaderNames.usernameHeaders,
            groupHeaders: rh?.groupHeaders ?? defaultRequestHeaderNames.groupHeaders,
            extraHeaderPrefixes: rh?.extraHeaderPrefixes ?? defaultRequestHeaderNames.extraHeaderPrefixes,
          },
        }
      : {}),
  };
}

/** What `make()` makes, with a CA or token file kube would refuse to start with as a usage error. */
async function usageChecked<T>(make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (err) {
    if (err instanceof TokenFileError || err instanceof ClientCaError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * The authorizer modules: those of an `--authorization-config` file, or delegation to a front server
 * (`--authorization-kubeconfig`, instead of local authorizers), or else one per `--authorization-mode`, in order.
 */
function authorizationModules(opts: ServeOptions): Module[] {
  if (opts.authorizationConfig) return [authorizationConfig(opts.authorizationConfig)];
  if (opts.delegatedAuthorization) return [delegatedAuthorization(opts.delegatedAuthorization)];
  return opts.authorizationModes.map((mode) => authorizer(mode, opts));
}

/** The authorizer module of an `--authorization-mode` value. */
function authorizer(mode: AuthorizationMode, opts: ServeOptions): Module {
  switch (mode) {
    case 'RBAC':
      return rbacAuthorization();
    case 'AlwaysAllow':
      return alwaysAllow();
    case 'AlwaysDeny':
      return alwaysDeny();
    case 'Webhook':
      // parsing made sure the webhook's flags come with the mode
      return webhookAuthorization(opts.authorizationWebhook!);
  }
}

/**
 * The token settings from the flags, with the signing key kept in the data directory unless a file is given; token
 * Secrets carry the CA of the server's certificate.
 */
async function serviceAccountTokenConfig(dataDir: string, o: ServiceAccountServeOptions, rootCaPem: string): Promise<ServiceAccountTokenConfig> {
  const signingKey = o.signingKeyFile ? await readServiceAccountSigningKey(o.signingKeyFile) : await ensureServiceAccountSigningKey(join(dataDir, 'pki', 'sa.key'));
  const verificationKeys = (await Promise.all(o.keyFiles.map((f) => readServiceAccountPublicKeys(f)))).flat();
  return {
    issuers: o.issuers,
    audiences: o.audiences,
    signingKey,
    verificationKeys,
    maxExpirationSeconds: o.maxExpirationSeconds,
    ...(o.jwksUri ? { jwksUri: o.jwksUri } : {}),
    rootCaPem,
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
