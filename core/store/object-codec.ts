import type { KeyValue } from '../contracts/kv-store.js';
import type { KubeObject } from '../contracts/resource-type.js';

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
  // The object is this call's own: set the version in place.
  (obj.metadata ??= {}).resourceVersion = String(kv.modRevision);
  return obj;
}

/**
 * A shallow copy of `obj` whose metadata (copied too) has `resourceVersion`; `obj` is not changed.
 *
 * Not `{ ...obj, metadata: { ...meta, resourceVersion } }`: on Node 20's V8 a property added after a spread takes a
 * slow path (about 0.7 µs each), and this runs for every write and every deletion a watch cache sees.
 */
export function withResourceVersion(obj: KubeObject, resourceVersion: string | undefined): KubeObject {
  const meta = obj.metadata ?? {};
  // Object.assign would set the prototype from an own "__proto__" key instead of copying it.
  const metadata = Object.hasOwn(meta, '__proto__') ? { ...meta } : Object.assign({}, meta);
  metadata.resourceVersion = resourceVersion;
  // Replacing an existing key after a spread is the fast case.
  return { ...obj, metadata };
}
