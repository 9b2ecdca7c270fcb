// Which providers a resource's values go through, as kube-apiserver builds them from an EncryptionConfiguration.
import test from 'ava';
import { encryptionTransformers } from '../../../../plugins/encryption/encryption-transformers.js';
import type { EncryptionConfiguration, ProviderConfiguration } from '../../../../plugins/encryption/encryption-config-types.js';

const aesgcm = (name: string, fill: number): ProviderConfiguration => ({ aesgcm: { keys: [{ name, secret: Buffer.alloc(32, fill).toString('base64') }] } });
const aescbc = (name: string, fill: number): ProviderConfiguration => ({ aescbc: { keys: [{ name, secret: Buffer.alloc(16, fill).toString('base64') }] } });
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

test('a rule masked by an earlier wildcard, kms and secretbox are refused', (t) => {
  t.throws(() => encryptionTransformers({ resources: [{ resources: ['*.'], providers: [{ identity: {} }] }, { resources: ['secrets'], providers: [aesgcm('k', 1)] }] }), {
    message: 'error while building transformers: resource "secrets" is masked by earlier rule "*."',
  });
  t.throws(() => encryptionTransformers({ resources: [{ resources: ['*.*'], providers: [{ identity: {} }] }, { resources: ['widgets.example.com'], providers: [aesgcm('k', 1)] }] }), {
    message: 'error while building transformers: resource "widgets.example.com" is masked by earlier rule "*.*"',
  });
  t.throws(() => encryptionTransformers({ resources: [{ resources: ['secrets'], providers: [{ identity: {} }, { kms: { name: 'vault' } }] }] }), {
    message: /^error while building transformers: resources\[0\]\.providers\[1\]\.kms: KMS providers are not supported by kapi/,
  });
  t.throws(() => encryptionTransformers({ resources: [{ resources: ['secrets'], providers: [{ secretbox: { keys: [{ name: 'k', secret: Buffer.alloc(32).toString('base64') }] } }] }] }), {
    message: /^error while building transformers: resources\[0\]\.providers\[0\]\.secretbox: the secretbox provider is not supported by kapi/,
  });
});
