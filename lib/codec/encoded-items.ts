/**
 * Encodings of list items kept per object, for codecs slower than V8's native JSON.stringify (protobuf, CBOR): lists
 * are mostly served from the watch cache, whose objects are shared and never mutated, so the next list of the same
 * objects only copies bytes.
 *
 * Items reach a codec as shallow copies of the cached objects (the version conversion sets apiVersion/kind on a copy),
 * so an item is recognised by its `metadata` object and the identity of every top-level value, not by its own identity.
 */
export class EncodedItems {
  private readonly byMetadata = new WeakMap<object, { values: unknown[]; bytes: Buffer }>();

  /** The bytes `encode` gives for `item`, encoded now or earlier for an item with the same top-level values. */
  bytes(item: object, encode: (item: object) => Buffer): Buffer {
    const metadata = (item as { metadata?: unknown }).metadata;
    const key = metadata !== null && typeof metadata === 'object' ? metadata : item;
    const values = Object.values(item);
    const cached = this.byMetadata.get(key);
    if (cached && sameValues(cached.values, values)) return cached.bytes;
    const bytes = encode(item);
    this.byMetadata.set(key, { values, bytes });
    return bytes;
  }
}

function sameValues(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
