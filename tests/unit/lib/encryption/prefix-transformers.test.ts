// kube's prefix transformers: which provider reads a value, when it is stale, and the errors when none can.
import test from 'ava';
import { aesGcmTransformer } from '../../../../lib/encryption/aes-gcm-transformer.js';
import { identityTransformer } from '../../../../lib/encryption/identity-transformer.js';
import { prefixTransformers } from '../../../../lib/encryption/prefix-transformers.js';

const key1 = { prefix: 'key1:', transformer: aesGcmTransformer(Buffer.alloc(32, 1)) };
const key2 = { prefix: 'key2:', transformer: aesGcmTransformer(Buffer.alloc(32, 2)) };
const aes = (...keys: (typeof key1)[]) => ({ prefix: 'k8s:enc:aesgcm:v1:', transformer: prefixTransformers(keys, 'no matching key was found for the provided AES transformer') });
const identity = { prefix: '', transformer: identityTransformer };
const resource = (...providers: { prefix: string; transformer: typeof identityTransformer }[]) => prefixTransformers(providers, 'no matching prefix found');
const plain = Buffer.from('{"kind":"Secret"}');
const at = '/registry/secrets/default/s1';

test('writes go through the first provider and its first key, behind their prefixes', (t) => {
  const stored = Buffer.from(resource(aes(key1, key2), identity).toStorage(plain, at));
  t.is(stored.subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key1:');
  t.false(stored.includes(plain));
  t.is(Buffer.from(resource(identity, aes(key1)).toStorage(plain, at)).toString(), plain.toString());
});

test('a value written with a later key or provider reads, marked stale; one of the first key is not', (t) => {
  const byKey1 = resource(aes(key1)).toStorage(plain, at);
  t.deepEqual(resource(aes(key1, key2)).fromStorage(byKey1, at), { data: plain, stale: false });
  const rotated = resource(aes(key2, key1)).fromStorage(byKey1, at);
  t.deepEqual([Buffer.from(rotated.data).toString(), rotated.stale], [plain.toString(), true]);
  const identityFirst = resource(identity, aes(key1)).fromStorage(byKey1, at);
  t.deepEqual([Buffer.from(identityFirst.data).toString(), identityFirst.stale], [plain.toString(), true]);
  t.deepEqual(resource(aes(key1), identity).fromStorage(plain, at), { data: plain, stale: true });
});

test('values no configured provider or key can read fail with kube’s messages', (t) => {
  const byKey1 = resource(aes(key1)).toStorage(plain, at);
  t.throws(() => resource(aes(key2)).fromStorage(byKey1, at), { message: 'no matching key was found for the provided AES transformer' });
  t.throws(() => resource(identity).fromStorage(byKey1, at), { message: 'identity transformer tried to read encrypted data' });
  t.throws(() => resource(aes(key1)).fromStorage(plain, at), { message: 'no matching prefix found' });
  t.throws(() => resource(identity, identity).fromStorage(byKey1, at), {
    message: '[identity transformer tried to read encrypted data, identity transformer tried to read encrypted data]',
  });
});
