import type { DependencyContainer } from 'tsyringe';
import type { Module } from '../contracts/module.js';
import type { ServerConfigOverrides } from '../contracts/server-config.js';
import type { TlsProfile } from './tls-profile.js';
import type { ShutdownOptions } from './graceful-shutdown.js';

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
