import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseGoDuration } from '../lib/go/duration.js';
import { UsageError } from './usage-error.js';
import { auditFlagOptions, auditUsage, parseAuditFlags, type AuditServeOptions } from './audit-flags.js';
import { loggingFlagOptions, loggingUsage, parseLoggingFlags, type LoggingServeOptions } from './logging-flags.js';
import { parseBool } from './bool-flag.js';
import { parseShutdownFlags, shutdownBooleanFlags, shutdownFlagOptions, shutdownUsage } from './shutdown-flags.js';
import {
  authenticationDelegationBooleanFlags,
  authenticationDelegationFlagOptions,
  authenticationDelegationUsage,
  parseAuthenticationDelegationFlags,
  type AuthenticationDelegationServeOptions,
} from './authentication-delegation-flags.js';
import { authorizationFlagOptions, authorizationUsage, parseAuthorizationFlags, type AuthorizationServeOptions } from './authorization-flags.js';
import { parseList } from './comma-list.js';
import { parseRuntimeConfig } from './runtime-config-flag.js';
import { parseRequestLimitFlags, requestLimitBooleanFlags, requestLimitFlagOptions, requestLimitUsage, type RequestLimitServeOptions } from './request-limit-flags.js';
import {
  tlsCipherSuiteNames,
  unknownCipherSuite,
  unknownCipherSuiteMessage,
  ServiceIPRange,
  NodePortRange,
  defaultRequestHeaderNames,
  type TlsMinVersion,
  type RequestHeaderOptions,
  type ShutdownOptions,
  type RuntimeConfig,
} from '../index.js';

export const serveUsage = `Usage: kapi serve [flags]

Runs an API server over HTTPS. At first start it creates a CA, a serving certificate, an admin token and a
kubeconfig in the data directory; later starts reuse them.

Flags:
  --data-dir DIR              where state, certificates and the kubeconfig live (default .kapi)
  --port N                    HTTPS port; 0 picks a free one (default 6443)
  --bind-address ADDR         address to listen on (default 127.0.0.1)
  --storage sqlite|memory|etcd
                              storage engine (default sqlite)
  --etcd-servers URL,URL      etcd client URLs, http:// or https:// (required with --storage etcd)
  --etcd-prefix PREFIX        key prefix in etcd (default /registry)
  --etcd-cafile FILE          CA certificate that signed etcd's serving certificates
  --etcd-certfile FILE        client certificate for etcd (with --etcd-keyfile)
  --etcd-keyfile FILE         key of the client certificate
  --etcd-compaction-interval DURATION
                              how often etcd's history is compacted, e.g. 10m or 1h30m; 0 never (default 5m0s)
  --encryption-provider-config FILE
                              EncryptionConfiguration (apiserver.config.k8s.io/v1): the providers (aesgcm, aescbc,
                              secretbox, identity) that encrypt the resources it names, e.g. secrets, in storage
  --encryption-provider-config-automatic-reload[=BOOL]
                              re-read the --encryption-provider-config file when it changes: a valid configuration
                              replaces the one in force, an invalid one is logged and ignored (default false: read at
                              start only)
  --watch-cache-history-size SIZE
                              bytes of memory each resource's watch cache keeps as history to resume watches from
                              (its objects and their encodings for watches), e.g. 1048576, 512Ki or 1Gi (default 64Mi)
  --event-ttl DURATION        how long an Event is kept after its last write, e.g. 30m or 2h (default 1h0m0s)
  --crds PATH                 CRD YAML file or folder to serve from the start; repeatable
  --runtime-config KEY=VALUE,…
                              built-in APIs served or not, as kube-apiserver takes them: api/all, api/ga, api/beta,
                              api/alpha (=true|false), GROUP/VERSION, GROUP/VERSION/RESOURCE (=BOOL, bare: true; core
                              group: /v1 or v1), the narrower key winning, e.g. rbac.authorization.k8s.io/v1=false,
                              v1/configmaps=false; repeatable (default: all served). The aggregator needs
                              apiregistration.k8s.io/v1, the namespaces module /v1/namespaces, RBAC its group
${authorizationUsage}  --admission-plugins A,B     admission plugins to run, in this order ("" for none; default: those enabled by default)
  --admission-control-config-file FILE
                              AdmissionConfiguration (apiserver.config.k8s.io/v1) giving the webhook and policy plugins
                              a staticManifestsDir of admission objects loaded from files and followed while serving
  --service-cluster-ip-range CIDR
                              IPv4 range Service cluster IPs are allocated from (default 10.0.0.0/24)
  --service-node-port-range RANGE
                              ports NodePort and LoadBalancer Services get node ports from (default 30000-32767)
  --tls-cipher-suites A,B     cipher suites offered on TLS 1.2, by IANA name as kube-apiserver takes them (TLS 1.3's are
                              always offered; default: ECDHE with AES-GCM or ChaCha20-Poly1305). Accepted:
${wrap(tlsCipherSuiteNames.join(', '), 30, 118)}
  --tls-min-version VERSION   oldest TLS version served: VersionTLS12 or VersionTLS13 (default VersionTLS12)
  --http2-max-streams-per-connection N
                              the most concurrent streams (requests, watches) an HTTP/2 client may open on one
                              connection; 0 uses kube's default, 100 (default 0)
  --service-account-issuer URL
                              the iss of ServiceAccount tokens; repeatable: the first signs, all are accepted (default
                              https://kubernetes.default.svc.cluster.local, as kubeadm sets it)
  --api-audiences A,B         audiences a token must name to authenticate; a TokenRequest without audiences gets them
                              (default: the first issuer)
  --service-account-signing-key-file FILE
                              PEM RSA or ECDSA private key tokens are signed with (default: <data-dir>/pki/sa.key, an
                              RSA key generated at first start)
  --service-account-key-file FILE
                              PEM public or private keys that also verify tokens; repeatable
  --service-account-max-token-expiration DURATION
                              longest validity a TokenRequest gets, between 1h and 2^32s (default: no maximum)
  --authentication-config FILE
                              AuthenticationConfiguration (apiserver.config.k8s.io/v1): JWT issuers whose tokens
                              authenticate, with claim mappings and validation rules; followed while serving
  --oidc-signing-algs A,B     signing algorithms JWT issuers' tokens may use (default RS256)
  --service-account-jwks-uri URL
                              jwks_uri of the OpenID discovery document (default: this server's /openid/v1/jwks)
  --client-ca-file FILE       PEM CA certificates that sign client certificates: a verified client certificate
                              authenticates its CommonName, in the groups of its Organizations (default:
                              <data-dir>/pki/ca.crt, kapi's own CA, which signs the certificates kapi kubeconfig issues)
  --requestheader-client-ca-file FILE
                              PEM CA certificates of front proxies: a request with a client certificate they sign is the
                              user its request headers name (without one the headers are ignored)
  --requestheader-allowed-names A,B
                              CommonNames a front proxy's certificate may have (default: any the CA signs)
  --requestheader-username-headers A,B
                              headers naming the user, the first non-empty one counts (default X-Remote-User)
  --requestheader-uid-headers A,B
                              headers carrying the user's UID, the first non-empty one counts (default: none, the UID is
                              not taken from headers; X-Remote-Uid is the standard one)
  --requestheader-group-headers A,B
                              headers whose every value is a group (default X-Remote-Group)
  --requestheader-extra-headers-prefix A,B
                              prefixes of headers carrying extra user info (default X-Remote-Extra-)
  --proxy-client-cert-file FILE
                              PEM client certificate kapi presents to the aggregated API servers it proxies to (their
                              --requestheader-client-ca-file must trust its CA; default: <data-dir>/pki/
                              front-proxy-client.crt, CommonName front-proxy-client, signed by the CA
                              <data-dir>/pki/front-proxy-ca.crt, both generated at first start)
  --proxy-client-key-file FILE
                              PEM private key of --proxy-client-cert-file (the two are given together)
  --token-auth-file FILE      bearer tokens as kube's CSV: token,user,uid,"group1,group2"
${authenticationDelegationUsage}  --anonymous-auth BOOL       serve requests without credentials as system:anonymous, which may only reach the
                              health and version paths; false: 401 on every path (default true)
${requestLimitUsage}${auditUsage}${loggingUsage}${shutdownUsage}  -h, --help                  show this help
`;

export interface ServeOptions extends AuditServeOptions, LoggingServeOptions, AuthenticationDelegationServeOptions, AuthorizationServeOptions, RequestLimitServeOptions {
  /** Absolute. */
  dataDir: string;
  port: number;
  bindAddress: string;
  storage: 'sqlite' | 'memory' | 'etcd';
  /** With `storage: 'etcd'`. */
  etcd?: EtcdServeOptions;
  /** Absolute. */
  crdPaths: string[];
  /** `--runtime-config`; absent: every built-in API served. */
  runtimeConfig?: RuntimeConfig;
  /** Absent: the registered plugins that are enabled by default. */
  admissionPlugins?: string[];
  /** Absolute; `--admission-control-config-file`. */
  admissionControlConfigFile?: string;
  /** Absolute; `--authentication-config`. */
  authenticationConfigFile?: string;
  /** `--oidc-signing-algs`; absent: RS256. */
  oidcSigningAlgorithms?: string[];
  /** Absolute; `--encryption-provider-config`. */
  encryptionProviderConfig?: string;
  /** `--encryption-provider-config-automatic-reload` (absent: false). */
  encryptionProviderConfigAutomaticReload?: true;
  /** From `--etcd-compaction-interval` (0: never); absent: the server's default (5 minutes). */
  compactionIntervalMs?: number;
  /** From `--watch-cache-history-size`; absent: the server's default (64 MiB). */
  watchCacheHistoryBytes?: number;
  /** `--service-cluster-ip-range`; absent: 10.0.0.0/24. */
  serviceClusterIPRange?: string;
  /** `--service-node-port-range`; absent: 30000-32767. */
  serviceNodePortRange?: string;
  /** `--tls-cipher-suites` (IANA names); absent: the server's default profile. */
  tlsCipherSuites?: string[];
  /** `--tls-min-version`; absent: TLS 1.2. */
  tlsMinVersion?: TlsMinVersion;
  /** `--http2-max-streams-per-connection`; absent: 0 (kube's default of 100). */
  http2MaxStreamsPerConnection?: number;
  /** From `--event-ttl`; absent: the events module's default (one hour). */
  eventTtlMs?: number;
  serviceAccounts: ServiceAccountServeOptions;
  /** Absolute; `--client-ca-file`; absent: kapi's CA in the data directory. */
  clientCaFile?: string;
  /** Absolute; `--token-auth-file`. */
  tokenAuthFile?: string;
  /** The `--requestheader-*` flags, when `--requestheader-client-ca-file` is given. */
  requestHeader?: RequestHeaderServeOptions;
  /** `--anonymous-auth`. */
  anonymousAuth: boolean;
  /** Absolute; `--proxy-client-cert-file` and `--proxy-client-key-file`; absent: the generated front-proxy client certificate. */
  proxyClient?: { certFile: string; keyFile: string };
  /** The `--shutdown-*` flags. */
  shutdown: ShutdownOptions;
}

export interface RequestHeaderServeOptions extends RequestHeaderOptions {
  /** Absolute; `--requestheader-client-ca-file`. */
  clientCaFile: string;
}

/** The `--service-account-*` flags and `--api-audiences`. */
export interface ServiceAccountServeOptions {
  issuers: string[];
  audiences: string[];
  /** Absolute; absent: the key kapi keeps in its data directory. */
  signingKeyFile?: string;
  /** Absolute. */
  keyFiles: string[];
  /** 0: no maximum. */
  maxExpirationSeconds: number;
  jwksUri?: string;
}

export type { AuthorizationMode } from './authorization-flags.js';

export interface EtcdServeOptions {
  endpoints: string[];
  prefix: string;
  /** Absolute paths of the TLS files given. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

/**
 * The `kapi serve` flags in effect, as /flagz lists them: those given (the last value; a repeatable flag's values as
 * "[a,b]", as kube's string slices print) and those with a default.
 */
export function effectiveFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (const [name, value] of Object.entries(parse(args).values)) {
    if (name !== 'help' && value !== undefined) flags[name] = Array.isArray(value) ? `[${value.join(',')}]` : String(value);
  }
  return flags;
}

/** Parses `kapi serve` flags; `help` when the user asked for usage. Throws `UsageError` on a bad command line. */
export function parseServeFlags(args: string[]): ServeOptions | 'help' {
  const { values } = parse(args);
  if (values.help) return 'help';
  const storage = values.storage;
  if (storage !== 'sqlite' && storage !== 'memory' && storage !== 'etcd') {
    throw new UsageError(`invalid --storage "${storage}": must be sqlite, memory or etcd`);
  }
  const etcd = parseEtcd(values, storage === 'etcd');
  const compaction = values['etcd-compaction-interval'];
  const historySize = values['watch-cache-history-size'];
  const cipherSuites = values['tls-cipher-suites'];
  const minVersion = values['tls-min-version'];
  const eventTtl = values['event-ttl'];
  const http2MaxStreams = values['http2-max-streams-per-connection'];
  return {
    dataDir: resolve(values['data-dir']),
    port: parsePort(values.port),
    bindAddress: values['bind-address'],
    storage,
    ...(etcd ? { etcd } : {}),
    crdPaths: (values.crds ?? []).map((p) => resolve(p)),
    ...(values['runtime-config'] ? { runtimeConfig: parseRuntimeConfig(values['runtime-config']) } : {}),
    ...(values['admission-plugins'] !== undefined ? { admissionPlugins: parseList(values['admission-plugins']) } : {}),
    ...parseAuthorizationFlags(values),
    ...(values['admission-control-config-file'] ? { admissionControlConfigFile: resolve(values['admission-control-config-file']) } : {}),
    ...(values['authentication-config'] ? { authenticationConfigFile: resolve(values['authentication-config']) } : {}),
    ...(values['oidc-signing-algs'] !== undefined ? { oidcSigningAlgorithms: parseSigningAlgorithms(values['oidc-signing-algs']) } : {}),
    ...(values['encryption-provider-config'] ? { encryptionProviderConfig: resolve(values['encryption-provider-config']) } : {}),
    ...(parseEncryptionReload(values) ? { encryptionProviderConfigAutomaticReload: true as const } : {}),
    ...(compaction !== undefined ? { compactionIntervalMs: parseCompactionInterval(compaction) } : {}),
    ...(historySize !== undefined ? { watchCacheHistoryBytes: parseByteSize('watch-cache-history-size', historySize) } : {}),
    ...serviceRanges(values['service-cluster-ip-range'], values['service-node-port-range']),
    ...(cipherSuites !== undefined && parseList(cipherSuites).length > 0 ? { tlsCipherSuites: parseCipherSuites(cipherSuites) } : {}),
    ...(minVersion !== undefined && minVersion !== '' ? { tlsMinVersion: parseTlsMinVersion(minVersion) } : {}),
    ...(http2MaxStreams !== undefined ? { http2MaxStreamsPerConnection: parseHttp2MaxStreams(http2MaxStreams) } : {}),
    serviceAccounts: parseServiceAccountFlags(values),
    ...parseAuditFlags(values),
    ...parseLoggingFlags(values),
    ...(eventTtl !== undefined ? { eventTtlMs: parseEventTtl(eventTtl) } : {}),
    ...(values['client-ca-file'] ? { clientCaFile: resolve(values['client-ca-file']) } : {}),
    ...(values['token-auth-file'] ? { tokenAuthFile: resolve(values['token-auth-file']) } : {}),
    ...parseRequestHeaderFlags(values),
    ...parseAuthenticationDelegationFlags(values),
    anonymousAuth: parseBool('anonymous-auth', values['anonymous-auth'] ?? 'true'),
    ...parseRequestLimitFlags(values),
    ...parseProxyClientFlags(values['proxy-client-cert-file'], values['proxy-client-key-file']),
    shutdown: parseShutdownFlags(values),
  };
}

/**
 * The `--requestheader-*` flags (each a comma list, repeatable, as kube's string slices); without
 * `--requestheader-client-ca-file` no request headers are trusted and the others do nothing, as in kube.
 */
function parseRequestHeaderFlags(values: ReturnType<typeof parse>['values']): { requestHeader?: RequestHeaderServeOptions } {
  const caFile = values['requestheader-client-ca-file'];
  if (typeof caFile !== 'string' || caFile === '') return {};
  const list = (flag: string, given: string[] | undefined, fallback: string[]) => {
    if (!given) return fallback;
    const items = given.filter((v) => v !== '').flatMap((v) => v.split(',').map((s) => s.trim()));
    if (items.includes('')) throw new UsageError(`empty value in "${flag}"`); // as kube-apiserver refuses to start
    return items;
  };
  return {
    requestHeader: {
      clientCaFile: resolve(caFile),
      allowedNames: list('requestheader-allowed-names', values['requestheader-allowed-names'], []),
      usernameHeaders: list('requestheader-username-headers', values['requestheader-username-headers'], defaultRequestHeaderNames.usernameHeaders),
      uidHeaders: list('requestheader-uid-headers', values['requestheader-uid-headers'], defaultRequestHeaderNames.uidHeaders),
      groupHeaders: list('requestheader-group-headers', values['requestheader-group-headers'], defaultRequestHeaderNames.groupHeaders),
      extraHeaderPrefixes: list('requestheader-extra-headers-prefix', values['requestheader-extra-headers-prefix'], defaultRequestHeaderNames.extraHeaderPrefixes),
    },
  };
}

/** `--proxy-client-cert-file` and `--proxy-client-key-file`: both or neither. */
function parseProxyClientFlags(certFile: string | undefined, keyFile: string | undefined): Pick<ServeOptions, 'proxyClient'> {
  if (!certFile && !keyFile) return {};
  if (!certFile || !keyFile) throw new UsageError('--proxy-client-cert-file and --proxy-client-key-file must be specified together');
  return { proxyClient: { certFile: resolve(certFile), keyFile: resolve(keyFile) } };
}

/** kubeadm's issuer: kube-apiserver has no default and requires the flag. */
const defaultIssuer = 'https://kubernetes.default.svc.cluster.local';

function parseServiceAccountFlags(values: ReturnType<typeof parse>['values']): ServiceAccountServeOptions {
  const issuers = values['service-account-issuer'] ?? [defaultIssuer];
  const seen = new Set<string>();
  for (const issuer of issuers) {
    if (issuer === '') throw new UsageError('service-account-issuer should not be an empty string');
    // kube's check: an issuer with a ':' must parse as a URL
    if (issuer.includes(':') && !URL.canParse(issuer)) throw new UsageError(`service-account-issuer "${issuer}" contained a ':' but was not a valid URL`);
    if (seen.has(issuer)) throw new UsageError(`service-account-issuer "${issuer}" is already specified`);
    seen.add(issuer);
  }
  const audiences = values['api-audiences'] !== undefined ? parseList(values['api-audiences']) : [];
  const signingKeyFile = values['service-account-signing-key-file'];
  const maxExpiration = values['service-account-max-token-expiration'];
  const jwksUri = values['service-account-jwks-uri'];
  return {
    issuers,
    audiences: audiences.length > 0 ? audiences : [issuers[0]!],
    ...(signingKeyFile ? { signingKeyFile: resolve(signingKeyFile) } : {}),
    keyFiles: (values['service-account-key-file'] ?? []).map((f) => resolve(f)),
    maxExpirationSeconds: maxExpiration === undefined ? 0 : parseMaxTokenExpiration(maxExpiration),
    ...(jwksUri ? { jwksUri } : {}),
  };
}

/** kube-apiserver's `--service-account-max-token-expiration`: a Go duration from 1h to 2^32 seconds (0: no maximum). */
function parseMaxTokenExpiration(text: string): number {
  const nanos = parseGoDuration(text);
  if (nanos === undefined) throw new UsageError(`invalid --service-account-max-token-expiration "${text}": must be a duration such as 24h`);
  const seconds = Number(nanos / 1_000_000_000n);
  if (nanos !== 0n && (seconds < 3600 || seconds > 2 ** 32)) {
    throw new UsageError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
  return seconds;
}

/** `--encryption-provider-config-automatic-reload`, which needs the file to follow (kube's message). */
function parseEncryptionReload(values: { 'encryption-provider-config'?: string; 'encryption-provider-config-automatic-reload'?: string }): boolean {
  const reload = parseBool('encryption-provider-config-automatic-reload', values['encryption-provider-config-automatic-reload'] ?? 'false');
  if (reload && !values['encryption-provider-config']) throw new UsageError('--encryption-provider-config-automatic-reload must be set with --encryption-provider-config');
  return reload;
}

/** Boolean flags given without a value mean true, as in kube's flag library. */
const booleanFlags = ['--anonymous-auth', '--encryption-provider-config-automatic-reload', ...authenticationDelegationBooleanFlags, ...requestLimitBooleanFlags, ...shutdownBooleanFlags];

function parse(args: string[]) {
  try {
    return parseArgs({
      args: args.map((a) => (booleanFlags.includes(a) ? `${a}=true` : a)),
      strict: true,
      allowPositionals: false,
      options: {
        'data-dir': { type: 'string', default: '.kapi' },
        port: { type: 'string', default: '6443' },
        'bind-address': { type: 'string', default: '127.0.0.1' },
        storage: { type: 'string', default: 'sqlite' },
        crds: { type: 'string', multiple: true },
        'runtime-config': { type: 'string', multiple: true },
        'admission-plugins': { type: 'string' },
        ...authorizationFlagOptions,
        'admission-control-config-file': { type: 'string' },
        'encryption-provider-config': { type: 'string' },
        'encryption-provider-config-automatic-reload': { type: 'string' },
        'etcd-servers': { type: 'string' },
        'etcd-prefix': { type: 'string' },
        'etcd-cafile': { type: 'string' },
        'etcd-certfile': { type: 'string' },
        'etcd-keyfile': { type: 'string' },
        'etcd-compaction-interval': { type: 'string' },
        'watch-cache-history-size': { type: 'string' },
        'service-cluster-ip-range': { type: 'string' },
        'service-node-port-range': { type: 'string' },
        'tls-cipher-suites': { type: 'string' },
        'tls-min-version': { type: 'string' },
        'http2-max-streams-per-connection': { type: 'string' },
        'service-account-issuer': { type: 'string', multiple: true },
        'api-audiences': { type: 'string' },
        'service-account-signing-key-file': { type: 'string' },
        'service-account-key-file': { type: 'string', multiple: true },
        'service-account-max-token-expiration': { type: 'string' },
        'service-account-jwks-uri': { type: 'string' },
        'event-ttl': { type: 'string' },
        'authentication-config': { type: 'string' },
        'oidc-signing-algs': { type: 'string' },
        ...auditFlagOptions,
        ...loggingFlagOptions,
        'client-ca-file': { type: 'string' },
        'token-auth-file': { type: 'string' },
        'requestheader-client-ca-file': { type: 'string' },
        'requestheader-allowed-names': { type: 'string', multiple: true },
        'requestheader-username-headers': { type: 'string', multiple: true },
        'requestheader-uid-headers': { type: 'string', multiple: true },
        'requestheader-group-headers': { type: 'string', multiple: true },
        'requestheader-extra-headers-prefix': { type: 'string', multiple: true },
        ...authenticationDelegationFlagOptions,
        'anonymous-auth': { type: 'string' },
        ...requestLimitFlagOptions,
        'proxy-client-cert-file': { type: 'string' },
        'proxy-client-key-file': { type: 'string' },
        ...shutdownFlagOptions,
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

const etcdFlags = ['etcd-servers', 'etcd-prefix', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile', 'etcd-compaction-interval'] as const;
type EtcdFlag = (typeof etcdFlags)[number];

/** The `--etcd-*` flags: required and checked with `--storage etcd`, refused without it. */
function parseEtcd(values: Partial<Record<EtcdFlag, string>>, used: boolean): EtcdServeOptions | undefined {
  if (!used) {
    const stray = etcdFlags.find((f) => values[f] !== undefined);
    if (stray) throw new UsageError(`--${stray} is only used with --storage etcd`);
    return undefined;
  }
  const servers = values['etcd-servers'];
  if (servers === undefined || parseList(servers).length === 0) throw new UsageError('--etcd-servers must be specified with --storage etcd');
  const endpoints = parseList(servers);
  for (const url of endpoints) {
    if (!/^https?:\/\/[^/\s:]+(:\d+)?\/?$/.test(url) && !/^https?:\/\/\[[0-9a-fA-F:.]+\](:\d+)?\/?$/.test(url)) {
      throw new UsageError(`invalid --etcd-servers "${url}": each server must be an http:// or https:// URL (e.g. http://127.0.0.1:2379)`);
    }
  }
  const secure = endpoints.filter((u) => u.startsWith('https://')).length;
  if (secure > 0 && secure < endpoints.length) throw new UsageError('--etcd-servers must be all http:// or all https://');
  const prefix = values['etcd-prefix'] ?? '/registry';
  if (!prefix.startsWith('/')) throw new UsageError(`invalid --etcd-prefix "${prefix}": must start with "/"`);
  const [caFile, certFile, keyFile] = (['etcd-cafile', 'etcd-certfile', 'etcd-keyfile'] as const).map((f) =>
    values[f] !== undefined && values[f] !== '' ? resolve(values[f]) : undefined,
  );
  if (Boolean(certFile) !== Boolean(keyFile)) throw new UsageError('--etcd-certfile and --etcd-keyfile must be given together');
  if ((caFile || certFile) && secure === 0) throw new UsageError('--etcd-cafile, --etcd-certfile and --etcd-keyfile need https:// --etcd-servers');
  const tls = caFile || certFile ? { ...(caFile ? { caFile } : {}), ...(certFile ? { certFile, keyFile } : {}) } : undefined;
  return { endpoints: endpoints.map((u) => u.replace(/\/$/, '')), prefix, ...(tls ? { tls } : {}) };
}

const binarySuffixes: Record<string, number> = { '': 1, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };

/** A size in bytes: a whole number, optionally with a binary suffix as Kubernetes quantities write them (Ki, Mi, Gi). */
function parseByteSize(flag: string, text: string): number {
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(text);
  const bytes = m ? Number(m[1]) * binarySuffixes[m[2] ?? '']! : NaN;
  if (!Number.isSafeInteger(bytes) || bytes === 0) {
    throw new UsageError(`invalid --${flag} "${text}": must be a positive number of bytes, e.g. 1048576, 512Ki or 64Mi`);
  }
  return bytes;
}


/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer interval would silently become 1 ms. */
const maxTimerMs = 2 ** 31 - 1;

/** kube-apiserver's `--etcd-compaction-interval`: a Go duration (`5m0s`, `90s`, `1h30m`), 0 to never compact. */
function parseCompactionInterval(text: string): number {
  const nanos = parseGoDuration(text);
  const invalid = (why: string) => new UsageError(`invalid --etcd-compaction-interval "${text}": ${why}`);
  if (nanos === undefined) throw invalid('must be a duration such as 5m0s, 90s or 1h30m (0 never compacts)');
  if (nanos < 0n) throw invalid('must not be negative');
  // Sub-millisecond intervals round up to the timer's 1 ms rather than down to 0 (never).
  const ms = nanos === 0n ? 0 : Math.max(1, Number(nanos / 1_000_000n));
  if (ms > maxTimerMs) throw invalid('must be at most 596h');
  return ms;
}

/** The algorithms kube-apiserver's `--oidc-signing-algs` allows. */
const signingAlgorithms = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];

function parseSigningAlgorithms(text: string): string[] {
  const algs = text.split(',').map((a) => a.trim()).filter(Boolean);
  const unknown = algs.find((a) => !signingAlgorithms.includes(a));
  if (unknown !== undefined || algs.length === 0) throw new UsageError(`invalid --oidc-signing-algs "${text}": supported algorithms are ${signingAlgorithms.join(', ')}`);
  return algs;
}

/** kube-apiserver's `--event-ttl`: a positive Go duration (`1h0m0s`, `30m`). */
function parseEventTtl(text: string): number {
  const nanos = parseGoDuration(text);
  const invalid = (why: string) => new UsageError(`invalid --event-ttl "${text}": ${why}`);
  if (nanos === undefined) throw invalid('must be a duration such as 30m or 2h');
  if (nanos <= 0n) throw invalid('must be positive');
  return Math.max(1, Number(nanos / 1_000_000n));
}

/** `--service-cluster-ip-range` and `--service-node-port-range`, checked as the services module reads them. */
function serviceRanges(cidr: string | undefined, ports: string | undefined): Pick<ServeOptions, 'serviceClusterIPRange' | 'serviceNodePortRange'> {
  try {
    if (cidr !== undefined) ServiceIPRange.parse(cidr);
  } catch (err) {
    throw new UsageError(`invalid --service-cluster-ip-range "${cidr}": ${(err as Error).message}`);
  }
  try {
    if (ports !== undefined) NodePortRange.parse(ports);
  } catch (err) {
    throw new UsageError(`invalid --service-node-port-range "${ports}": ${(err as Error).message}`);
  }
  return { ...(cidr !== undefined ? { serviceClusterIPRange: cidr } : {}), ...(ports !== undefined ? { serviceNodePortRange: ports } : {}) };
}

/** kube-apiserver's `--tls-cipher-suites`: IANA names, comma-separated ("" or absent: the default profile). */
function parseCipherSuites(text: string): string[] {
  const names = parseList(text);
  const unknown = unknownCipherSuite(names);
  if (unknown !== undefined) throw new UsageError(`invalid --tls-cipher-suites "${text}": ${unknownCipherSuiteMessage(unknown)}`);
  return names;
}

/** kube-apiserver's `--tls-min-version`, of which kapi serves the two versions without known weaknesses. */
function parseTlsMinVersion(text: string): TlsMinVersion {
  if (text === 'VersionTLS12' || text === 'VersionTLS13') return text;
  if (text === 'VersionTLS10' || text === 'VersionTLS11') {
    throw new UsageError(`--tls-min-version ${text} is not supported: kapi serves TLS 1.2 and 1.3 only (VersionTLS12 or VersionTLS13)`);
  }
  throw new UsageError(`invalid --tls-min-version "${text}": unknown tls version "${text}"`);
}

/**
 * kube-apiserver's `--http2-max-streams-per-connection`: an integer, of which anything not positive means the default
 * (kube only applies a positive one); at most what SETTINGS_MAX_CONCURRENT_STREAMS holds.
 */
function parseHttp2MaxStreams(text: string): number {
  const n = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n > 2 ** 32 - 1) {
    throw new UsageError(`invalid --http2-max-streams-per-connection "${text}": must be a whole number of streams, at most 4294967295 (0: the default, 100)`);
  }
  return Math.max(0, n);
}

/** `text` broken into lines of at most `width` characters, each indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => ' '.repeat(indent) + l).join('\n');
}

function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`invalid --port "${text}": must be a number from 0 to 65535`);
  return port;
}
