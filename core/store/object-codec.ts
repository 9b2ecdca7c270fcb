import type { KeyValue } from '../storage/kv.js';
import type { KubeObject } from '../registry/resource-type.js';

/**
 * Objects are stored as JSON without `metadata.resourceVersion`: the version is the key's modRevision and is put back
 * on every read, so it can never disagree with storage.
 */
export function encodeStored(obj: KubeObject): Uint8Array {
  const meta = obj.metadata;
  if (meta && meta.resourceVersion !== undefined) {
    const { resourceVersion: _ignored, ...rest } = meta;
    return Buffer.from(JSON.stringify({ ...obj, metadata: rest }));
  }
  return Buffer.from(JSON.stringify(obj));
}

export function decodeStored(kv: KeyValue): KubeObject {
  const obj = JSON.parse(Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8')) as KubeObject;
  obj.metadata = { ...obj.metadata, resourceVersion: String(kv.modRevision) };
  return obj;
}
