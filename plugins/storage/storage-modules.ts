import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Module } from '../../core/module.js';
import type { KVStore } from '../../core/storage/kv.js';
import { Tokens } from '../../core/tokens.js';
import { MemoryKV } from './memory/memory-kv.js';
import { SqliteKV } from './sqlite/sqlite-kv.js';

/** Registers one KV store (created on first use) and its readiness check `storage`. */
function storageModule(open: () => KVStore): Module {
  return (c) => {
    let kv: KVStore | undefined;
    c.register(Tokens.KVStore, { useFactory: () => (kv ??= open()) });
    c.register(Tokens.HealthCheck, {
      useValue: { name: 'storage', readinessOnly: true, check: () => c.resolve(Tokens.KVStore).healthCheck() },
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
