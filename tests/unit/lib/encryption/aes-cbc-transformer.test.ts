// kube's aescbc provider: IV ‖ AES-CBC of the PKCS#7-padded value.
import test from 'ava';
import { createDecipheriv } from 'node:crypto';
import { aesCbcTransformer } from '../../../../lib/encryption/aes-cbc-transformer.js';

const hex = (s: string) => Buffer.from(s, 'hex');
const xor = (a: Buffer, b: Buffer) => Buffer.from(a.map((x, i) => x ^ b[i]!));

// FIPS-197 / SP 800-38A F.1.1 (AES-128): E(key, block) = cipherBlock.
const key = hex('2b7e151628aed2a6abf7158809cf4f3c');
const block = hex('6bc1bee22e409f96e93d7e117393172a');
const cipherBlock = hex('3ad77bb40d7a3660a89ecaf32466ef97');

test('a value laid out as IV ‖ ciphertext decrypts and loses its PKCS#7 padding (a known AES block)', (t) => {
  // One block decrypts to D(C) ⊕ IV: pick the IV that makes it "hello, kapi!" and four bytes of padding 4.
  const padded = Buffer.concat([Buffer.from('hello, kapi!'), Buffer.alloc(4, 4)]);
  const read = aesCbcTransformer(key).fromStorage(Buffer.concat([xor(block, padded), cipherBlock]), '/ignored');
  t.is(Buffer.from(read.data).toString(), 'hello, kapi!');
  t.false(read.stale);
});

test('SP 800-38A’s CBC example is refused for its padding, with kube’s message', (t) => {
  const stored = Buffer.concat([
    hex('000102030405060708090a0b0c0d0e0f'),
    hex('7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7'),
  ]);
  // Its last plaintext block ends in 0x10 but is not sixteen bytes of 0x10.
  t.throws(() => aesCbcTransformer(key).fromStorage(stored, ''), { message: 'invalid padding on input' });
});

test('a written value is a random IV and the padded ciphertext; the storage key is not authenticated (as kube)', (t) => {
  const cbc = aesCbcTransformer(Buffer.alloc(32, 3));
  const plain = Buffer.from('{"kind":"Secret"}'); // 17 bytes: two blocks once padded
  const stored = Buffer.from(cbc.toStorage(plain, '/registry/secrets/a/s1'));
  t.is(stored.length, 16 + 32);
  const decipher = createDecipheriv('aes-256-cbc', Buffer.alloc(32, 3), stored.subarray(0, 16));
  t.deepEqual(Buffer.concat([decipher.update(stored.subarray(16)), decipher.final()]), plain);
  t.deepEqual(Buffer.from(cbc.fromStorage(stored, '/registry/secrets/b/other').data), plain);
});

test('malformed values fail with kube’s messages', (t) => {
  const cbc = aesCbcTransformer(key);
  t.throws(() => cbc.fromStorage(Buffer.alloc(15), ''), { message: 'the stored data was shorter than the required size' });
  t.throws(() => cbc.fromStorage(Buffer.alloc(16 + 20), ''), { message: 'the stored data is not a multiple of the block size' });
  t.throws(() => cbc.fromStorage(Buffer.alloc(16), ''), { message: 'invalid PKCS7 data (empty or not padded)' });
  // A last byte of 0 is no padding at all.
  t.throws(() => cbc.fromStorage(Buffer.concat([xor(block, Buffer.alloc(16)), cipherBlock]), ''), { message: 'invalid PKCS7 data (empty or not padded)' });
});
