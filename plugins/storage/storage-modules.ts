import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { defineModule, type Module } from '../../core/contracts/module.js';
import type { KVStore } from '../../core/contracts/kv-store.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { MemoryKV } from './memory/memory-kv.js';
import { SqliteKV } from './sqlite/sqlite-kv.js';
import { EtcdKV } from './etcd/etcd-kv.js';
import type { EtcdTlsFiles } from './etcd/etcd-client.js';

/** Registers one KV store, created on first use. */
function registerKV(c: DependencyContainer, open: () => KVStore): void {
  let kv: KVStore | undefined;
  c.register(Tokens.KVStore, { useFactory: () => (kv ??= open()) });
}

/** An embedded store and its readiness check, `storage`. */
function embeddedStorage(name: string, open: () => KVStore): Module {
  return defineModule(name, (c) => {
    registerKV(c, open);
    c.register(Tokens.HealthCheck, {
      useValue: { name: 'storage', readinessOnly: true, check: () => c.resolve(Tokens.KVStore).healthCheck() },
    });
  });
}

/** Embedded, durable storage in one SQLite file (the default). */
export function sqliteStorage(file: string): Module {
  return embeddedStorage('sqlite-storage', () => {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    return new SqliteKV(file);
  });
}

/** Storage in memory: nothing survives a restart. */
export function memoryStorage(): Module {
  return embeddedStorage('memory-storage', () => new MemoryKV());
}

export interface EtcdStorageOptions {
  /** Client URLs of the etcd members (`--etcd-servers`), all `http://` or all `https://`. */
  endpoints: string[];
  /** Key prefix in etcd (`--etcd-prefix`, default `/registry` as kube-apiserver's). */
  prefix?: string;
  /** CA, client certificate and key files for TLS to etcd (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`). */
  tls?: EtcdTlsFiles;
}

/**
 * Storage in etcd, which several kapi servers can share. Its health checks are kube-apiserver's: `etcd` in /healthz,
 * /livez and /readyz, and `etcd-readiness` in /readyz only.
 */
export function etcdStorage(opts: EtcdStorageOptions): Module {
  return defineModule('etcd-storage', (c) => {
    registerKV(c, () => new EtcdKV({ endpoints: opts.endpoints, prefix: opts.prefix, tls: opts.tls }));
    const probe = sharedProbe(() => c.resolve(Tokens.KVStore).healthCheck());
    c.register(Tokens.HealthCheck, { useValue: { name: 'etcd', check: probe } });
    c.register(Tokens.HealthCheck, { useValue: { name: 'etcd-readiness', readinessOnly: true, check: probe } });
  });
}

/** As kube-apiserver's etcd checks (half their 2 s timeout): one probe's result answers every check for a second. */
const probeReuseMs = 1_000;

/** `check`, run at most once per `probeReuseMs`: callers within that time share the last run, finished or not. */
function sharedProbe(check: () => Promise<void>): () => Promise<void> {
  let last: { at: number; result: Promise<void> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= probeReuseMs) last = { at: now, result: check() };
    return last.result;
  };
}
