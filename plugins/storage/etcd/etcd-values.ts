import type { KeyValue, KVEvent } from '../../../core/contracts/kv-store.js';
import type { EtcdKeys } from './etcd-keys.js';
import type { KeyValue as EtcdKeyValue, WatchEvent } from './grpc/etcd-messages.js';

/** etcd's key-value as a KV KeyValue under `key`. */
export function toKeyValue(key: string, kv: EtcdKeyValue): KeyValue {
  return { key, value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision };
}

/** A KeyValue read from etcd, or undefined when the key is outside the store's prefix. */
export function readKeyValue(keys: EtcdKeys, kv: EtcdKeyValue | undefined): KeyValue | undefined {
  if (!kv) return undefined;
  const key = keys.fromEtcd(kv.key);
  return key === undefined ? undefined : toKeyValue(key, kv);
}

const empty = new Uint8Array(0);

/**
 * An etcd watch event as a KV event, or undefined for a key outside the store's prefix. etcd's DELETE carries only
 * the key and the delete's revision; the contract's DELETE carries the last value, which is the event's prev_kv.
 */
export function toKVEvent(keys: EtcdKeys, ev: WatchEvent): KVEvent | undefined {
  const key = keys.fromEtcd(ev.kv.key);
  if (key === undefined) return undefined;
  const prevKv = ev.prevKv ? toKeyValue(key, ev.prevKv) : undefined;
  if (ev.type === 'DELETE') {
    const kv: KeyValue = {
      key,
      value: prevKv?.value ?? empty,
      createRevision: prevKv?.createRevision ?? 0,
      modRevision: ev.kv.modRevision,
    };
    return prevKv ? { type: 'DELETE', kv, prevKv } : { type: 'DELETE', kv };
  }
  const kv = toKeyValue(key, ev.kv);
  return prevKv ? { type: 'PUT', kv, prevKv } : { type: 'PUT', kv };
}
