import { hasPrefix } from './has-prefix.js';
import type { TransformedValue, ValueTransformer } from './value-transformer.js';

/** The prefix of every value an encrypting provider wrote. */
const encryptedPrefix = Buffer.from('k8s:enc:');

/**
 * kube's identity provider (identity.NewEncryptCheckTransformer): values are stored as they are, and a value that an
 * encrypting provider wrote is refused rather than read as plain bytes.
 */
export const identityTransformer: ValueTransformer = {
  fromStorage(stored: Uint8Array): TransformedValue {
    if (hasPrefix(stored, encryptedPrefix)) throw new Error('identity transformer tried to read encrypted data');
    return { data: stored, stale: false };
  },
  toStorage(data: Uint8Array): Uint8Array {
    return data;
  },
};

