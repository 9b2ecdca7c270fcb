// kube's aesgcm provider: nonce ‖ ciphertext ‖ tag, the storage key as authenticated data.
import test from 'ava';
import { createDecipheriv } from 'node:crypto';
import { aesGcmTransformer } from '../../../../lib/encryption/aes-gcm-transformer.js';

const hex = (s: string) => Buffer.from(s, 'hex');

test('a value laid out as nonce ‖ ciphertext ‖ tag decrypts: the GCM specification’s test case 3', (t) => {
  const key = hex('feffe9928665731c6d6a8f9467308308');
  const nonce = hex('cafebabefacedbaddecaf888');
  const ciphertext = hex(
    '42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985',
  );
  const tag = hex('4d5c2af327cd64a62cf35abd2ba6fab4');
  // The test case has no additional data: an empty storage key.
  const read = aesGcmTransformer(key).fromStorage(Buffer.concat([nonce, ciphertext, tag]), '');
  t.is(
    Buffer.from(read.data).toString('hex'),
    'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255',
  );
  t.false(read.stale);
});

test('a written value is a random 12-byte nonce, the ciphertext and a 16-byte tag over the storage key', (t) => {
  const key = Buffer.alloc(32, 7);
  const gcm = aesGcmTransformer(key);
  const plain = Buffer.from('{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}');
  const stored = Buffer.from(gcm.toStorage(plain, '/registry/secrets/default/s1'));
  t.is(stored.length, 12 + plain.length + 16);
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, 12));
  decipher.setAAD(Buffer.from('/registry/secrets/default/s1'));
  decipher.setAuthTag(stored.subarray(stored.length - 16));
  t.deepEqual(Buffer.concat([decipher.update(stored.subarray(12, stored.length - 16)), decipher.final()]), plain);
  t.notDeepEqual(Buffer.from(gcm.toStorage(plain, '/registry/secrets/default/s1')).subarray(0, 12), stored.subarray(0, 12), 'a new nonce per write');
  t.deepEqual(Buffer.from(gcm.fromStorage(stored, '/registry/secrets/default/s1').data), plain);
});

test('a value moved to another key, changed, or read with another secret fails as Go’s AEAD does', (t) => {
  const gcm = aesGcmTransformer(Buffer.alloc(16, 1));
  const stored = Buffer.from(gcm.toStorage(Buffer.from('{}'), '/registry/secrets/a/s1'));
  const failed = { message: 'cipher: message authentication failed' };
  t.throws(() => gcm.fromStorage(stored, '/registry/secrets/b/s1'), failed);
  const flipped = Buffer.from(stored);
  flipped[14]! ^= 1;
  t.throws(() => gcm.fromStorage(flipped, '/registry/secrets/a/s1'), failed);
  t.throws(() => aesGcmTransformer(Buffer.alloc(16, 2)).fromStorage(stored, '/registry/secrets/a/s1'), failed);
  t.throws(() => gcm.fromStorage(stored.subarray(0, 20), '/registry/secrets/a/s1'), failed);
  t.throws(() => gcm.fromStorage(stored.subarray(0, 11), '/registry/secrets/a/s1'), { message: 'the stored data was shorter than the required size' });
});
