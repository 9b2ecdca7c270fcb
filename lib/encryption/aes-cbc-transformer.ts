import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { aesAlgorithm } from './aes-gcm-transformer.js';
import type { TransformedValue, ValueTransformer } from './value-transformer.js';

const blockSize = 16;

/**
 * kube's aescbc provider (aes.NewCBCTransformer): AES-CBC with a random IV, stored as IV ‖ ciphertext of the data
 * padded with PKCS#7. As kube's, it authenticates nothing (the storage key is not used). `secret`: 16, 24 or 32 bytes.
 */
export function aesCbcTransformer(secret: Uint8Array): ValueTransformer {
  const algorithm = aesAlgorithm(secret, 'cbc');
  return {
    fromStorage(stored: Uint8Array): TransformedValue {
      if (stored.length < blockSize) throw new Error('the stored data was shorter than the required size');
      const body = stored.subarray(blockSize);
      if (body.length % blockSize !== 0) throw new Error('the stored data is not a multiple of the block size');
      // Padding is checked here rather than by OpenSSL, for kube's messages.
      const decipher = createDecipheriv(algorithm, secret, stored.subarray(0, blockSize)).setAutoPadding(false);
      const padded = Buffer.concat([decipher.update(body), decipher.final()]);
      const padding = padded.length > 0 ? padded[padded.length - 1]! : 0;
      if (padding === 0 || padding > padded.length) throw new Error('invalid PKCS7 data (empty or not padded)');
      for (let i = padded.length - padding; i < padded.length; i++) {
        if (padded[i] !== padding) throw new Error('invalid padding on input');
      }
      return { data: padded.subarray(0, padded.length - padding), stale: false };
    },
    toStorage(data: Uint8Array): Uint8Array {
      const iv = randomBytes(blockSize);
      // OpenSSL's padding is PKCS#7, as kube's.
      const cipher = createCipheriv(algorithm, secret, iv);
      return Buffer.concat([iv, cipher.update(data), cipher.final()]);
    },
  };
}
