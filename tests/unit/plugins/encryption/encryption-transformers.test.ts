// Which providers a resource's values go through, as kube-apiserver builds them from an EncryptionConfiguration.
import test from 'ava';
import { encryptionTransformers } from '../../../../plugins/encryption/encryption-transformers.js';
import type { ValueTransformer } from '../../../../lib/encryption/value-transformer.js';
import type { EncryptionConfiguration, ProviderConfiguration } from '../../../../plugins/encryption/encryption-config-types.js';

const aesgcm = (name: string, fill: number): ProviderConfiguration => ({ aesgcm: { keys: [{ name, secret: Buffer.alloc(32, fill).toString('base64') }] } });
const aescbc = (name: string, fill: number): ProviderConfiguration => ({ aescbc: { keys: [{ name, secret: Buffer.alloc(16, fill).toString('base64') }] } });
const secretbox = (name: string, fill: number): ProviderConfiguration => ({ secretbox: { keys: [{ name, secret: Buffer.alloc(32, fill).toString('base64') }] } });
const plain = Buffer.from('{}');
/** The prefix a resource's new values get ('' when stored as they are). */
const writtenAs = (config: EncryptionConfiguration, group: string, resource: string) =>
  Buffer.from(encryptionTransformers(config).forResource(group, resource).toStorage(plain, '/k')).toString('latin1').match(/^k8s:enc:\w+:v1:\w+:/)?.[0] ?? '';

test('a named resource, then its group’s wildcard, then *.*, else stored as it is', (t) => {
  const config: EncryptionConfiguration = {
    resources: [
      { resources: ['secrets', 'widgets.example.com'], providers: [aesgcm('exact', 1)] },
      { resources: ['*.example.com', '*.'], providers: [aescbc('group', 2)] },
      { resources: ['*.*'], providers: [aesgcm('all', 3)] },
    ],
  };
  t.is(writtenAs(config, '', 'secrets'), 'k8s:enc:aesgcm:v1:exact:');
  t.is(writtenAs(config, 'example.com', 'widgets'), 'k8s:enc:aesgcm:v1:exact:');
  t.is(writtenAs(config, 'example.com', 'gadgets'), 'k8s:enc:aescbc:v1:group:');
  t.is(writtenAs(config, '', 'configmaps'), 'k8s:enc:aescbc:v1:group:');
  t.is(writtenAs(config, 'apps', 'deployments'), 'k8s:enc:aesgcm:v1:all:');
  t.is(writtenAs({ resources: [{ resources: ['secrets'], providers: [aesgcm('k', 1)] }] }, '', 'configmaps'), '');
});

test('a resource in two rules writes with the first rule’s provider and reads with both', (t) => {
  const first: EncryptionConfiguration = { resources: [{ resources: ['secrets'], providers: [aesgcm('one', 1)] }] };
  const both: EncryptionConfiguration = { resources: [{ resources: ['secrets'], providers: [aescbc('two', 2)] }, ...first.resources] };
  const old = encryptionTransformers(first).forResource('', 'secrets').toStorage(plain, '/k');
  t.is(writtenAs(both, '', 'secrets'), 'k8s:enc:aescbc:v1:two:');
  t.deepEqual(Buffer.from(encryptionTransformers(both).forResource('', 'secrets').fromStorage(old, '/k').data), plain);
});

test('a rule masked by an earlier wildcard and kms are refused', (t) => {
  t.throws(() => encryptionTransformers({ resources: [{ resources: ['*.'], providers: [{ identity: {} }] }, { resources: ['secrets'], providers: [aesgcm('k', 1)] }] }), {
    message: 'error while building transformers: resource "secrets" is masked by earlier rule "*."',
  });
  t.throws(() => encryptionTransformers({ resources: [{ resources: ['*.*'], providers: [{ identity: {} }] }, { resources: ['widgets.example.com'], providers: [aesgcm('k', 1)] }] }), {
    message: 'error while building transformers: resource "widgets.example.com" is masked by earlier rule "*.*"',
  });
  t.throws(() => encryptionTransformers({ resources: [{ resources: ['secrets'], providers: [{ identity: {} }, { kms: { name: 'vault' } }] }] }), {
    message: /^error while building transformers: resources\[0\]\.providers\[1\]\.kms: KMS providers are not supported by kapi/,
  });
});

test('secretbox writes behind k8s:enc:secretbox:v1:<key>:; reordering providers rotates between it and aesgcm', (t) => {
  const rule = (...providers: ProviderConfiguration[]): EncryptionConfiguration => ({ resources: [{ resources: ['secrets'], providers }] });
  const forSecrets = (config: EncryptionConfiguration) => encryptionTransformers(config).forResource('', 'secrets');
  const read = (transformer: ValueTransformer, stored: Uint8Array) => {
    const { data, stale } = transformer.fromStorage(stored, '/k');
    return { data: Buffer.from(data).toString(), stale };
  };
  t.is(writtenAs(rule(secretbox('box', 1), aesgcm('gcm', 2)), '', 'secrets'), 'k8s:enc:secretbox:v1:box:');
  const boxed = forSecrets(rule(secretbox('box', 1))).toStorage(plain, '/k');
  const sealed = forSecrets(rule(aesgcm('gcm', 2))).toStorage(plain, '/k');
  // aesgcm first: its values are current, secretbox's are read and stale (rewritten on the next update), and back.
  const gcmFirst = forSecrets(rule(aesgcm('gcm', 2), secretbox('box', 1)));
  t.deepEqual(read(gcmFirst, boxed), { data: '{}', stale: true });
  t.deepEqual(read(gcmFirst, sealed), { data: '{}', stale: false });
  const boxFirst = forSecrets(rule(secretbox('box', 1), aesgcm('gcm', 2)));
  t.deepEqual(read(boxFirst, boxed), { data: '{}', stale: false });
  t.deepEqual(read(boxFirst, sealed), { data: '{}', stale: true });
  t.throws(() => forSecrets(rule(secretbox('other', 1))).fromStorage(boxed, '/k'), { message: 'no matching key was found for the provided Secretbox transformer' });
});
