// `--encryption-provider-config`: the file kube-apiserver accepts, and the messages it refuses the others with.
import test from 'ava';
import { readEncryptionConfiguration } from '../../../../plugins/encryption/encryption-configuration.js';
import { tempFile } from '../../../helpers/kapi-process.js';

const key32 = Buffer.alloc(32, 1).toString('base64');
const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n';
const read = (yaml: string) => readEncryptionConfiguration(tempFile('encryption.yaml', header + yaml));
const refused = (t: import('ava').ExecutionContext, yaml: string, message: string) =>
  t.throws(() => read(yaml), { message: `error while parsing file: ${message}` }, yaml);

test('a configuration with aesgcm then identity for secrets is read as written', (t) => {
  const config = read(`resources:
- resources: [secrets, widgets.example.com]
  providers:
  - aesgcm:
      keys:
      - name: key1
        secret: ${key32}
  - identity: {}
`);
  t.deepEqual(config, {
    resources: [{ resources: ['secrets', 'widgets.example.com'], providers: [{ aesgcm: { keys: [{ name: 'key1', secret: key32 }] } }, { identity: {} }] }],
  });
});

test('keys are refused as kube refuses them: length, base64, missing name or secret, none', (t) => {
  const keys = (provider: string, entries: string) => `resources:\n- resources: [secrets]\n  providers:\n  - ${provider}:\n      keys: ${entries}\n`;
  refused(t, keys('aesgcm', '[{name: k, secret: cGFzc3dvcmQ=}]'), 'resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]');
  refused(t, keys('aescbc', '[{name: k, secret: "P@ssword"}]'), 'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded');
  refused(t, keys('secretbox', `[{name: k, secret: ${Buffer.alloc(16).toString('base64')}}]`), 'resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]');
  refused(t, keys('aesgcm', '[{secret: cGFzc3dvcmQ=}]'), '[resources[0].providers[0].aesgcm.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]]');
  refused(t, keys('aesgcm', '[{name: k}]'), 'resources[0].providers[0].aesgcm.keys[0].secret: Required value: secret is a mandatory field for a key');
  refused(t, keys('aesgcm', '[]'), 'resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required');
});

test('secretbox among other providers: its keys are validated in place, each error once in kube’s list', (t) => {
  const key16 = Buffer.alloc(16, 1).toString('base64');
  const providers = (secretbox: string) => `resources:
- resources: [secrets]
  providers:
  - aesgcm: {keys: [{name: gcm, secret: ${key16}}]}
  - secretbox: {keys: ${secretbox}}
  - identity: {}
`;
  t.deepEqual(read(providers(`[{name: box, secret: ${key32}}]`)).resources[0]!.providers[1], { secretbox: { keys: [{ name: 'box', secret: key32 }] } });
  refused(
    t,
    providers(`[{name: new, secret: ${key32}}, {name: short, secret: ${key16}}, {name: bad, secret: "not base64"}]`),
    '[resources[0].providers[1].secretbox.keys[1].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32], resources[0].providers[1].secretbox.keys[2].secret: Invalid value: "REDACTED": secrets must be base64 encoded]',
  );
  refused(t, providers('[]'), 'resources[0].providers[1].secretbox.keys: Required value: at least one keys is required');
});

test('resources and providers are refused as kube refuses them', (t) => {
  const aes = `[{aesgcm: {keys: [{name: k, secret: ${key32}}]}}]`;
  refused(t, 'resources: []', 'resources: Required value: at least one resources is required');
  refused(t, `resources:\n- providers: ${aes}`, 'resources[0].resources: Required value: at least one resources[0].resources is required');
  refused(t, 'resources:\n- resources: [secrets]', 'resources[0].providers: Required value: at least one resources[0].providers is required');
  refused(t, `resources:\n- resources: ["*"]\n  providers: ${aes}`, `resources[0].resources[0]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources`);
  refused(t, `resources:\n- resources: [Secrets]\n  providers: ${aes}`, 'resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters');
  refused(t, `resources:\n- resources: [secrets, "*.events.k8s.io"]\n  providers: ${aes}`, `resources[0].resources[1]: Invalid value: "*.events.k8s.io": '*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file`);
  refused(t, `resources:\n- resources: ["foos.*"]\n  providers: ${aes}`, 'resources[0].resources[0]: Invalid value: "foos.*": encrypting the same resource across groups is not supported');
  refused(t, `resources:\n- resources: [secrets, "secrets."]\n  providers: ${aes}`, 'resources[0].resources: Invalid value: []string{"secrets", "secrets."}: the same resource cannot be specified multiple times');
  refused(t, `resources:\n- resources: [secrets, "*."]\n  providers: ${aes}`, `resources[0].resources: Invalid value: []string{"secrets", "*."}: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`);
  refused(t, 'resources:\n- resources: [secrets]\n  providers: [{}]', 'resources[0].providers[0]: Invalid value: apiserver.ProviderConfiguration{AESGCM:(*apiserver.AESConfiguration)(nil), AESCBC:(*apiserver.AESConfiguration)(nil), Secretbox:(*apiserver.SecretboxConfiguration)(nil), Identity:(*apiserver.IdentityConfiguration)(nil), KMS:(*apiserver.KMSConfiguration)(nil)}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity');
  t.throws(() => read(`resources:\n- resources: [secrets]\n  providers: [{identity: {}, aesgcm: {keys: [{name: k, secret: ${key32}}]}}]`), {
    message: /^error while parsing file: resources\[0\]\.providers\[0\]: Invalid value: .*: more than one provider specified in a single element, should split into different list elements$/,
  });
});

test('a file that is not an EncryptionConfiguration is refused naming the file', (t) => {
  const empty = tempFile('empty.yaml', '');
  t.throws(() => readEncryptionConfiguration(empty), { message: `error while parsing file: encryption provider configuration file "${empty}" is empty` });
  const other = tempFile('other.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\n');
  t.throws(() => readEncryptionConfiguration(other), { message: new RegExp(`^error while parsing file: error decoding encryption provider configuration file "${other}": no kind "AdmissionConfiguration"`) });
  const typed = tempFile('typed.yaml', `${header}resources: secrets\n`);
  t.throws(() => readEncryptionConfiguration(typed), {
    message: `error while parsing file: error decoding encryption provider configuration file "${typed}": json: cannot unmarshal string into Go struct field EncryptionConfiguration.resources of type []v1.ResourceConfiguration`,
  });
  t.throws(() => readEncryptionConfiguration('/nonexistent/encryption.yaml'), { message: /^error while parsing file: error opening encryption provider configuration file "\/nonexistent\/encryption.yaml": / });
});
