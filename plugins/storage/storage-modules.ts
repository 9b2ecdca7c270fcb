import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Module } from '../../core/module.js';
import type { KVStore } from '../../core/storage/kv.js';
import { Tokens } from '../../core/tokens.js';
import { MemoryKV } from './memory/memory-kv.js';
import { SqliteKV } from './sqlite/sqlite-kv.js';
import { EtcdKV } from './etcd/etcd-kv.js';
import type { EtcdTlsFiles } from './etcd/etcd-client.js';

/** Registers one KV store (created on first use) and its readiness check (`storage`, or the engine's own name). */
function storageModule(open: () => KVStore, checkName = 'storage'): Module {
  return (c) => {
    let kv: KVStore | undefined;
    c.register(Tokens.KVStore, { useFactory: () => (kv ??= open()) });
    c.register(Tokens.HealthCheck, {
      useValue: { name: checkName, readinessOnly: true, check: () => c.resolve(Tokens.KVStore).healthCheck() },
    });
  };
}

/** Embedded, durable storage in one SQLite file (the default). */
export function sqliteStorage(file: string): Module {
  return storageModule(() => {
    mkdirSync(dirname(file), { recursive: true });
    return new SqliteKV(file);
  });
}

/** Storage in memory: nothing survives a restart. */
export function memoryStorage(): Module {
  return storageModule(() => new MemoryKV());
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
 * Storage in etcd, which several kapi servers can share. Its readiness check is `etcd` (`/readyz/etcd`), as
 * kube-apiserver's.
 */
export function etcdStorage(opts: EtcdStorageOptions): Module {
  return storageModule(() => new EtcdKV({ endpoints: opts.endpoints, prefix: opts.prefix, tls: opts.tls }), 'etcd');
}
