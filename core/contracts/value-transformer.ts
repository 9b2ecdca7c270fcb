import type { ValueTransformer } from '../../lib/encryption/value-transformer.js';

export type { TransformedValue, ValueTransformer } from '../../lib/encryption/value-transformer.js';

/**
 * The transformers of stored values, per resource (kube's ResourceTransformers, from `--encryption-provider-config`).
 * The generic store and the watch caches pass every value they write and read through the one of its resource, so
 * storage plugins only ever see transformed bytes. Without a registration, values are stored as they are (kube's
 * identity provider, which refuses to read a value an encrypting provider wrote).
 */
export interface StorageTransformers {
  /** The transformer of a resource as stored (`ResourceType.storedAs` when set): group '' for the core group. */
  forResource(group: string, resource: string): ValueTransformer;
}
