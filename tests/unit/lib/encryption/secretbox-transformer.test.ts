// kube's secretbox provider: nonce ‖ NaCl secretbox (tag ‖ ciphertext), no authenticated data.
import test from 'ava';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { secretboxTransformer } from '../../../../lib/encryption/secretbox-transformer.js';

const key = Buffer.alloc(32, 1);
const nonce = Buffer.alloc(24, 2);
const message = Buffer.alloc(64, 3);
/** NaCl's crypto_secretbox of `message` under `key` and `nonce`, as computed by the C implementation of NaCl (the vector of Go's x/crypto/nacl/secretbox tests, which kube uses). */
const naclBox = Buffer.from(
  '8442bc313f4626f1359e3b50122b6ce6fe66ddfe7d39d14e637eb4fd5b45beadab55198df6ab5368439792a23c87db70acb6156dc5ef957ac04f6276cf6093b84be77ff0849cc33e34b7254d5a8f65ad',
  'hex',
);

test('a value laid out as kube writes it (nonce, then the NaCl box) opens: the NaCl reference vector', (t) => {
  const read = secretboxTransformer(key).fromStorage(Buffer.concat([nonce, naclBox]), '/registry/secrets/default/s1');
  t.deepEqual(Buffer.from(read.data), message);
  t.false(read.stale);
});

test('a written value is a random 24-byte nonce and the NaCl box of the data under it', (t) => {
  const box = secretboxTransformer(key);
  const stored = Buffer.from(box.toStorage(message, '/registry/secrets/default/s1'));
  t.is(stored.length, 24 + 16 + message.length);
  const again = Buffer.from(box.toStorage(message, '/registry/secrets/default/s1'));
  t.notDeepEqual(again.subarray(0, 24), stored.subarray(0, 24), 'a new nonce per write');
  t.deepEqual(stored.subarray(24), Buffer.from(xsalsa20poly1305(key, stored.subarray(0, 24)).encrypt(message)), 'nonce ‖ crypto_secretbox output, nothing else');
  t.deepEqual(Buffer.from(box.fromStorage(stored, '/another/key').data), message, 'the storage key is not authenticated, as kube’s');
});

test('a changed value, a wrong key or a short value fail with kube’s messages', (t) => {
  const box = secretboxTransformer(key);
  const stored = Buffer.concat([nonce, naclBox]);
  const failed = { message: 'output array was not large enough for encryption' };
  for (const at of [0, 30, stored.length - 1]) {
    const changed = Buffer.from(stored);
    changed[at]! ^= 1;
    t.throws(() => box.fromStorage(changed, ''), failed, `byte ${at} changed`);
  }
  t.throws(() => secretboxTransformer(Buffer.alloc(32, 9)).fromStorage(stored, ''), failed);
  const empty = box.toStorage(Buffer.alloc(0), '');
  t.is(empty.length, 40, 'a box of nothing is 40 bytes');
  t.is(box.fromStorage(empty, '').data.length, 0);
  t.throws(() => box.fromStorage(stored.subarray(0, 39), ''), { message: 'the stored data was shorter than the required size' });
  t.throws(() => secretboxTransformer(Buffer.alloc(16)), { message: 'expected key size 32 for secretbox provider, got 16' });
});
