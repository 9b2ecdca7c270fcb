import type { DependencyContainer } from 'tsyringe';
import type { Module } from '../contracts/module.js';
import type { ServerConfigOverrides } from '../contracts/server-config.js';
import type { TlsProfile } from './tls-profile.js';

/** How a server shuts down (kube-apiserver's flags of the same names; see graceful-shutdown.ts). */
export interface ShutdownOptions {
  /** `--shutdown-delay-duration`: how long /readyz fails while requests are still served as usual (default 0). */
  delayMs?: number;
  /**
   * `--shutdown-send-retry-after`: after the delay, keep listening and answer every new request 429 with
   * `Retry-After` and `Connection: close` until the requests in flight are done (default false: stop listening then).
   */
  sendRetryAfter?: boolean;
  /** `--shutdown-watch-termination-grace-period`: the time over which watches are ended, paced (default 0: at once). */
  watchTerminationGracePeriodMs?: number;
  /** kube's ShutdownTimeout: how long requests in flight may still take once new ones are refused (default 60 s). */
  timeoutMs?: number;
}

export interface ApiServerOptions {
  /** Modules registered in order; later registrations of a single-valued token win. */
  modules: Module[];
  config?: ServerConfigOverrides;
}

export interface ListenOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
  /** PEM serving certificate and key, and the cipher suites and versions offered; plain HTTP when absent. */
  tls?: { cert: string; key: string } & TlsProfile;
}

export interface ApiServer {
  readonly container: DependencyContainer;
  /** Starts controllers, then listens. Resolves with the bound address. */
  listen(opts: ListenOptions): Promise<{ host: string; port: number; url: string }>;
  /**
   * kube-apiserver's graceful termination: /readyz fails, `delayMs` passes with requests served as usual, then new
   * requests are refused as kube refuses them, watches end cleanly and requests in flight finish (up to `timeoutMs`);
   * then as `close()`. Resolves when storage is closed.
   */
  shutdown(opts?: ShutdownOptions): Promise<void>;
  /** Stops at once: ends every connection (requests in flight and watches are cut), stops controllers, closes storage. */
  close(): Promise<void>;
}
