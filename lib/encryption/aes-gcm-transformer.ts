import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { TransformedValue, ValueTransformer } from './value-transformer.js';

const nonceSize = 12;
const tagSize = 16;

/**
 * kube's aesgcm provider (aes.NewGCMTransformer): AES-GCM with a random 96-bit nonce, stored as nonce ‖ ciphertext ‖
 * 128-bit tag, the storage key as additional authenticated data. `secret`: 16, 24 or 32 bytes.
 */
export function aesGcmTransformer(secret: Uint8Array): ValueTransformer {
  const algorithm = aesAlgorithm(secret, 'gcm');
  return {
    fromStorage(stored: Uint8Array, key: string): TransformedValue {
      if (stored.length < nonceSize) throw new Error('the stored data was shorter than the required size');
      // Go's AEAD Open fails with one message for a value too short to hold a tag and for a wrong tag
      const authenticationFailed = new Error('cipher: message authentication failed');
      if (stored.length < nonceSize + tagSize) throw authenticationFailed;
      const decipher = createDecipheriv(algorithm, secret, stored.subarray(0, nonceSize), { authTagLength: tagSize });
      decipher.setAAD(Buffer.from(key, 'utf8'));
      decipher.setAuthTag(stored.subarray(stored.length - tagSize));
      try {
        return { data: Buffer.concat([decipher.update(stored.subarray(nonceSize, stored.length - tagSize)), decipher.final()]), stale: false };
      } catch {
        throw authenticationFailed;
      }
    },
    toStorage(data: Uint8Array, key: string): Uint8Array {
      const nonce = randomBytes(nonceSize);
      const cipher = createCipheriv(algorithm, secret, nonce, { authTagLength: tagSize });
      cipher.setAAD(Buffer.from(key, 'utf8'));
      const sealed = Buffer.concat([cipher.update(data), cipher.final()]);
      return Buffer.concat([nonce, sealed, cipher.getAuthTag()]);
    },
  };
}

/** Node's name of AES with a key of this size in this mode. */
export function aesAlgorithm<M extends 'gcm' | 'cbc'>(secret: Uint8Array, mode: M): `aes-${128 | 192 | 256}-${M}` {
  const bits = secret.length * 8;
  if (bits !== 128 && bits !== 192 && bits !== 256) throw new RangeError(`crypto/aes: invalid key size ${secret.length}`);
  return `aes-${bits}-${mode}`;
}
