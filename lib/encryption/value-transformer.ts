/** What a transformer read from storage. */
export interface TransformedValue {
  /** The plain bytes (an object's JSON). */
  data: Uint8Array;
  /**
   * Read with other than the transformer that writes (an older key or provider): the value should be rewritten even
   * when the object did not change, so that a key can be retired (kube's `stale`).
   */
  stale: boolean;
}

/**
 * Turns the bytes of an object into the bytes stored for it and back (kube's value.Transformer): encryption at rest.
 * `key` is the storage key, the authenticated data of the ciphers that take any, so a value copied to another key does
 * not decrypt there. Throws an Error worded as kube-apiserver words it when a value cannot be read.
 */
export interface ValueTransformer {
  fromStorage(stored: Uint8Array, key: string): TransformedValue;
  toStorage(data: Uint8Array, key: string): Uint8Array;
}
