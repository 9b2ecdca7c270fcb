import type { ProxyClientCertificate } from '../../lib/aggregator/backend-transport.js';
import type { RuntimeConfig } from './runtime-config.js';

/** Settings shared by the server's modules. */
export interface ServerConfig {
  /** Largest accepted request body in bytes (kube-apiserver: 3 MiB). */
  maxRequestBodyBytes: number;
  /** Version reported at /version. */
  version: VersionInfo;
  watchCache: WatchCacheConfig;
  /** Storage history older than one interval is compacted every interval, as kube-apiserver does (0 = never). */
  compactionIntervalMs: number;
  /** The admission plugins to run, by name, in order; absent: every registered one enabled by default, as registered. */
  admissionPlugins?: string[];
  /**
   * A connection's TLS handshake, and then each request header, must complete within this, or the connection is closed
   * (kube-apiserver: 32 s).
   */
  requestHeaderTimeoutMs: number;
  /** A kept-alive connection with no request in progress is closed after this (kube-apiserver: 90 s). */
  idleConnectionTimeoutMs: number;
  /**
   * The most streams (requests, watches) an HTTP/2 client may have open on one connection, as the server's
   * SETTINGS_MAX_CONCURRENT_STREAMS announces it (kube-apiserver's `--http2-max-streams-per-connection`); 0: kube's
   * default, 100.
   */
  http2MaxStreamsPerConnection: number;
  /**
   * Whether a request without credentials is served as `system:anonymous` (kube-apiserver's `--anonymous-auth`,
   * default true); false: it is 401 on every path.
   */
  anonymousAuth: boolean;
  /**
   * The client certificate presented to the aggregated API servers requests are proxied to (kube-apiserver's
   * `--proxy-client-cert-file`/`--proxy-client-key-file`; `kapi serve` generates one by default); absent: none.
   */
  proxyClient?: ProxyClientCertificate;
  /**
   * The CA that aggregated API servers verify `proxyClient` with, for the front to publish as kube does (the
   * `requestheader-client-ca-file` of `kube-system/extension-apiserver-authentication`); absent: none known.
   */
  frontProxyCaPem?: string;
  /**
   * Which built-in group-versions and resources are served (kube-apiserver's `--runtime-config`, e.g.
   * `{ 'rbac.authorization.k8s.io/v1': 'false' }`); absent: all of them.
   */
  runtimeConfig?: RuntimeConfig;
  /** The command line the server was started with, flag name → effective value, as /flagz lists it (absent: none). */
  flags?: Readonly<Record<string, string>>;
  /**
   * kube-apiserver's `--max-requests-inflight` (default 400): with priority and fairness, added to
   * `maxMutatingRequestsInflight` to make the server's concurrency limit shared by the priority levels; without, the
   * most read-only requests served at once (0: no limit).
   */
  maxRequestsInflight: number;
  /** `--max-mutating-requests-inflight` (default 200): as above, for mutating requests. */
  maxMutatingRequestsInflight: number;
  /**
   * `--enable-priority-and-fairness` (default true): requests are classified by FlowSchemas and queued fairly per
   * priority level when the server serves them (the flowcontrol module); false, or without that module: max-in-flight.
   */
  enablePriorityAndFairness: boolean;
}

/** The per-resource watch cache (core/watch). */
export interface WatchCacheConfig {
  /** Events younger than this stay in a cache's history; watches may start anywhere inside it. */
  historyWindowMs: number;
  /** A cache keeps at most this many events of history (older ones go first, even inside the window). */
  historyMaxEvents: number;
  /**
   * …and events weighing at most this many bytes together: their objects as held in memory and the encodings watches
   * share (the newest one stays whatever its size).
   */
  historyMaxBytes: number;
  /** How often a watch that allows bookmarks receives one. */
  bookmarkIntervalMs: number;
  /** How long a read waits for a resourceVersion the server has not reached yet before answering 504. */
  waitForResourceVersionMs: number;
}

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export const defaultServerConfig: ServerConfig = {
  maxRequestBodyBytes: 3 * 1024 * 1024,
  watchCache: {
    historyWindowMs: 5 * 60_000,
    historyMaxEvents: 100_000,
    historyMaxBytes: 64 * 1024 * 1024,
    bookmarkIntervalMs: 60_000,
    waitForResourceVersionMs: 3_000,
  },
  compactionIntervalMs: 5 * 60_000,
  requestHeaderTimeoutMs: 32_000,
  idleConnectionTimeoutMs: 90_000,
  http2MaxStreamsPerConnection: 0,
  anonymousAuth: true,
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
  enablePriorityAndFairness: true,
  version: {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0-kapi.0.1.0',
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '2026-11-21T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'kapi',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  },
};

/** Settings a server is created with: any subset, merged over the defaults (watchCache field by field). */
export type ServerConfigOverrides = Partial<Omit<ServerConfig, 'watchCache'>> & { watchCache?: Partial<WatchCacheConfig> };

export function resolveServerConfig(overrides: ServerConfigOverrides = {}): ServerConfig {
  return { ...defaultServerConfig, ...overrides, watchCache: { ...defaultServerConfig.watchCache, ...overrides.watchCache } };
}
