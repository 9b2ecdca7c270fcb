export { MemoryKV } from './memory/memory-kv.js';
export { SqliteKV, type SqliteKVOptions } from './sqlite/sqlite-kv.js';
export { compareKeys, hasPrefix, prefixEnd } from './keys.js';
export { WatchHub, type WatchEventSource } from './watch-hub.js';
export { sqliteStorage, memoryStorage, etcdStorage, type EtcdStorageOptions } from './storage-modules.js';
export { EtcdKV, type EtcdKVOptions } from './etcd/etcd-kv.js';
export type { EtcdTlsFiles } from './etcd/etcd-client.js';
