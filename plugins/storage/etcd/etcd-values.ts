import type { IEvent, IKeyValue } from 'etcd3';
import type { KeyValue, KVEvent } from '../../../core/storage/kv.js';
import type { EtcdKeys } from './etcd-keys.js';

/** etcd's key-value (revisions arrive as decimal strings) as a KV KeyValue under `key`. */
export function toKeyValue(key: string, kv: IKeyValue): KeyValue {
  return {
    key,
    value: kv.value,
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
  };
}

/** A KeyValue read from etcd, or undefined when the key is outside the store's prefix. */
export function readKeyValue(keys: EtcdKeys, kv: IKeyValue | null | undefined): KeyValue | undefined {
  if (!kv) return undefined;
  const key = keys.fromEtcd(kv.key);
  return key === undefined ? undefined : toKeyValue(key, kv);
}

const empty = new Uint8Array(0);

/**
 * An etcd watch event as a KV event, or undefined for a key outside the store's prefix. etcd's DELETE carries only
 * the key and the delete's revision; the contract's DELETE carries the last value, which is the event's prev_kv.
 */
export function toKVEvent(keys: EtcdKeys, ev: IEvent): KVEvent | undefined {
  const key = keys.fromEtcd(ev.kv.key);
  if (key === undefined) return undefined;
  const prevKv = ev.prev_kv ? toKeyValue(key, ev.prev_kv) : undefined;
  if (String(ev.type).toUpperCase() === 'DELETE') {
    const kv: KeyValue = {
      key,
      value: prevKv?.value ?? empty,
      createRevision: prevKv?.createRevision ?? 0,
      modRevision: Number(ev.kv.mod_revision),
    };
    return prevKv ? { type: 'DELETE', kv, prevKv } : { type: 'DELETE', kv };
  }
  const kv = toKeyValue(key, ev.kv);
  return prevKv ? { type: 'PUT', kv, prevKv } : { type: 'PUT', kv };
}
