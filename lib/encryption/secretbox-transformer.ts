import { randomBytes } from 'node:crypto';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import type { TransformedValue, ValueTransformer } from './value-transformer.js';

const keySize = 32;
const nonceSize = 24;
/** NaCl secretbox's overhead: the Poly1305 tag, which comes before the ciphertext. */
const tagSize = 16;

/**
 * kube's secretbox provider (secretbox.NewSecretboxTransformer): NaCl secretbox (XSalsa20-Poly1305) with a random
 * 24-byte nonce, stored as nonce ‖ tag ‖ ciphertext. As kube's, the storage key is not authenticated. `secret`: 32 bytes.
 */
export function secretboxTransformer(secret: Uint8Array): ValueTransformer {
  if (secret.length !== keySize) throw new RangeError(`expected key size 32 for secretbox provider, got ${secret.length}`);
  return {
    fromStorage(stored: Uint8Array): TransformedValue {
      if (stored.length < nonceSize + tagSize) throw new Error('the stored data was shorter than the required size');
      try {
        return { data: xsalsa20poly1305(secret, stored.subarray(0, nonceSize)).decrypt(stored.subarray(nonceSize)), stale: false };
      } catch {
        // kube's text for any box that does not open (a wrong key, a changed value)
        throw new Error('output array was not large enough for encryption');
      }
    },
    toStorage(data: Uint8Array): Uint8Array {
      const nonce = randomBytes(nonceSize);
      return Buffer.concat([nonce, xsalsa20poly1305(secret, nonce).encrypt(data)]);
    },
  };
}
