import { performance } from 'node:perf_hooks';
import type { GetOptions, KVStore, RangeOptions } from '../contracts/kv-store.js';
import type { KeyedHistogram } from './keyed-metrics.js';

/** API groups without a dot (kube's legacy ones): any other first key segment without a dot is a core resource. */
const dotlessGroups = new Set(['apps', 'batch', 'autoscaling', 'policy', 'extensions']);

/**
 * The storage plugin with the latency of each read and write observed in etcd_request_duration_seconds, by operation
 * (get, list, create, update, delete) and object type, read from the key's layout (`/registry/{group}/{resource}/…`).
 * Watches, compaction and health checks pass through unmeasured, as in kube.
 */
export function instrumentedKVStore(kv: KVStore, duration: KeyedHistogram): KVStore {
  const children = new Map<string, { observe(seconds: number): void }>();
  const observe = (operation: string, key: string, seconds: number) => {
    const type = objectType(key);
    const id = `${operation} ${type}`;
    let child = children.get(id);
    if (!child) children.set(id, (child = duration.child(id, { operation, type })));
    child.observe(seconds);
  };
  // A thunk, so that a storage doing its work synchronously (SQLite) is measured too.
  const timed = async <T>(operation: string, key: string, call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      observe(operation, key, (performance.now() - started) / 1000);
    }
  };
  return {
    get: (key: string, opts?: GetOptions) => timed('get', key, () => kv.get(key, opts)),
    range: (prefix: string, opts?: RangeOptions) => timed('list', prefix, () => kv.range(prefix, opts)),
    create: (key, value) => timed('create', key, () => kv.create(key, value)),
    update: (key, value, expected) => timed('update', key, () => kv.update(key, value, expected)),
    delete: (key, expected) => timed('delete', key, () => kv.delete(key, expected)),
    watch: (prefix, after, handlers) => kv.watch(prefix, after, handlers),
    currentRevision: () => kv.currentRevision(),
    compact: (revision) => kv.compact(revision),
    compactedRevision: () => kv.compactedRevision(),
    ...(kv.compactRound ? { compactRound: (revision: number) => kv.compactRound!(revision) } : {}),
    healthCheck: () => kv.healthCheck(),
    close: () => kv.close(),
  };
}

/** kube's object type label, the group-resource: "configmaps", "widgets.example.com" ("" for a key outside /registry/). */
export function objectType(key: string): string {
  const parts = key.split('/', 4); // '', 'registry', first, second
  if (parts[1] !== 'registry' || !parts[2]) return '';
  const first = parts[2];
  if (first.includes('.') || dotlessGroups.has(first)) return parts[3] ? `${parts[3]}.${first}` : '';
  return first;
}
