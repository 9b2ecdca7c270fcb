// `kapi serve --encryption-provider-config`: Secrets encrypted in kapi.db as kube-apiserver encrypts them in etcd, read
// back with kubectl, a key rotated by restarting with a new first key, and configurations kube refuses refused at start;
// with --encryption-provider-config-automatic-reload, an edited file taken while serving.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, eventually, removeDir, startKapi, tempDir, tempFile, type KapiProcess } from '../helpers/kapi-process.js';

const dataDir = tempDir('kapi-e2e-encryption-');
let kapi: KapiProcess | undefined;

test.after.always(async () => {
  await kapi?.stop();
  removeDir(dataDir);
});

const key1 = Buffer.alloc(32, 0x11).toString('base64');
const key2 = Buffer.alloc(32, 0x22).toString('base64');

/** An EncryptionConfiguration for secrets with these providers (YAML list items). */
function secretsConfig(...providers: string[]): string {
  const text = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n${providers.map((p) => `  - ${p}\n`).join('')}`;
  return tempFile('encryption.yaml', text);
}
const aesgcm = (...keys: [string, string][]) => `aesgcm: {keys: [${keys.map(([name, secret]) => `{name: ${name}, secret: "${secret}"}`).join(', ')}]}`;

async function restart(...providers: string[]): Promise<KapiProcess> {
  await kapi?.stop();
  kapi = await startKapi({ dataDir, args: ['--encryption-provider-config', secretsConfig(...providers)] });
  return kapi;
}

/** The value kapi.db holds now for a key (read while the server runs: SQLite's WAL lets another reader in). */
function storedValue(key: string): Buffer {
  return storedValueIn(dataDir, key);
}

function storedValueIn(dir: string, key: string): Buffer {
  const db = new Database(join(dir, 'kapi.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT kv.value AS value FROM kv_current JOIN kv ON kv.id = kv_current.id WHERE kv_current.name = ?').get(key) as { value: Buffer } | undefined;
    if (!row) throw new Error(`no value for ${key} in kapi.db`);
    return row.value;
  } finally {
    db.close();
  }
}

/** The database and its write-ahead log as bytes: everything kapi wrote to disk. */
function databaseFiles(): Buffer {
  const file = join(dataDir, 'kapi.db');
  const wal = (() => {
    try {
      return readFileSync(`${file}-wal`);
    } catch {
      return Buffer.alloc(0);
    }
  })();
  return Buffer.concat([readFileSync(file), wal]);
}

const base64 = (s: string) => Buffer.from(s).toString('base64');
const password = 'hunter2-at-rest';

test.serial('with aesgcm for secrets a Secret is encrypted in kapi.db, a ConfigMap is not, and kubectl reads both', async (t) => {
  const k = await restart(aesgcm(['key1', key1]), 'identity: {}');
  for (const name of ['s0', 's1']) {
    const created = await k.kubectl(['create', 'secret', 'generic', name, `--from-literal=password=${password}`]);
    t.is(created.code, 0, describe(created));
  }
  const cm = await k.kubectl(['create', 'configmap', 'c1', '--from-literal=note=configmap-in-the-clear']);
  t.is(cm.code, 0, describe(cm));

  const stored = storedValue('/registry/secrets/default/s1');
  t.is(stored.subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key1:');
  const disk = databaseFiles();
  t.false(disk.includes(base64(password)), 'the secret’s data is nowhere on disk');
  t.false(disk.includes('"kind":"Secret"'), 'nor its JSON');
  t.true(disk.includes('configmap-in-the-clear'), 'a ConfigMap (not configured) is stored as it is');
  t.is(storedValue('/registry/configmaps/default/c1').subarray(0, 1).toString(), '{');

  const get = await k.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
  t.is(get.stdout, base64(password), describe(get));
  const list = await k.kubectl(['get', 'secrets', '-o', 'jsonpath={.items[*].metadata.name}']);
  t.is(list.stdout, 's0 s1', describe(list));
});

test.serial('after a restart with a new first key, old Secrets read; new and replaced ones are written with the new key', async (t) => {
  const k = await restart(aesgcm(['key2', key2], ['key1', key1]), 'identity: {}');
  const get = await k.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
  t.is(get.stdout, base64(password), describe(get));
  const created = await k.kubectl(['create', 'secret', 'generic', 's2', '--from-literal=password=new']);
  t.is(created.code, 0, describe(created));
  t.is(storedValue('/registry/secrets/default/s2').subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key2:');

  // kube's rotation step: read every secret and write it back.
  const json = await k.kubectl(['get', 'secret', 's1', '-o', 'json']);
  const replaced = await k.kubectl(['replace', '-f', '-'], { stdin: json.stdout });
  t.is(replaced.code, 0, describe(replaced));
  t.is(storedValue('/registry/secrets/default/s1').subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key2:');
  t.is(storedValue('/registry/secrets/default/s0').subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key1:', 's0 is left as it was');
});

test.serial('with the old key gone, a Secret still under it fails as kube reports it; the others are served', async (t) => {
  const k = await restart(aesgcm(['key2', key2]));
  const old = await k.kubectl(['get', 'secret', 's0']);
  t.is(old.code, 1, describe(old));
  t.is(old.stderr, 'Error from server (InternalError): Internal error occurred: no matching key was found for the provided AES transformer\n');
  const list = await k.kubectl(['get', 'secrets']);
  t.is(list.code, 1, describe(list));
  t.is(
    list.stderr,
    'Error from server (InternalError): Internal error occurred: unable to transform key "/registry/secrets/default/s0": no matching key was found for the provided AES transformer\n',
  );
  const rotated = await k.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
  t.is(rotated.stdout, base64(password), describe(rotated));
  const configmaps = await k.kubectl(['get', 'configmap', 'c1', '-o', 'jsonpath={.data.note}']);
  t.is(configmaps.stdout, 'configmap-in-the-clear', describe(configmaps));
});

test.serial('with identity first new Secrets are written as they are, and encrypted ones still read', async (t) => {
  const k = await restart('identity: {}', aesgcm(['key2', key2], ['key1', key1]));
  const created = await k.kubectl(['create', 'secret', 'generic', 's3', '--from-literal=password=plain-again']);
  t.is(created.code, 0, describe(created));
  t.is(storedValue('/registry/secrets/default/s3').subarray(0, 1).toString(), '{');
  t.true(databaseFiles().includes(base64('plain-again')));
  const list = await k.kubectl(['get', 'secrets', '-o', 'jsonpath={.items[*].metadata.name}']);
  t.is(list.stdout, 's0 s1 s2 s3', describe(list));
});

test.serial('configurations kube-apiserver refuses stop kapi serve at start with kube’s messages', async (t) => {
  const refused = async (providers: string[], message: string) => {
    const err = await t.throwsAsync(startKapi({ args: ['--encryption-provider-config', secretsConfig(...providers)] }));
    t.regex(err!.message, /exited before serving \(code 1/);
    t.true(err!.message.includes(`kapi: ${message}\n`), err!.message);
  };
  await refused(
    [aesgcm(['key1', Buffer.alloc(10).toString('base64')])],
    'error while parsing file: resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 10, expected one of [16 24 32]',
  );
  await refused(
    ['aescbc: {keys: [{name: key1, secret: "not base64!"}]}'],
    'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
  );
  await refused(
    [aesgcm(['key1', key1]), `secretbox: {keys: [{name: box, secret: "${Buffer.alloc(24).toString('base64')}"}]}`, 'identity: {}'],
    'error while parsing file: resources[0].providers[1].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 24, expected one of [32]',
  );
  await refused(
    ['kms: {name: vault, endpoint: "unix:///tmp/kms.sock"}'],
    'error while building transformers: resources[0].providers[0].kms: KMS providers are not supported by kapi (it cannot call a KMS plugin): use aesgcm, aescbc or secretbox',
  );
});

test.serial('with --encryption-provider-config-automatic-reload an edited file is in force without a restart; an invalid edit is logged', async (t) => {
  const file = secretsConfig(aesgcm(['key1', key1]));
  const k = await startKapi({ args: ['--encryption-provider-config', file, '--encryption-provider-config-automatic-reload'] });
  t.teardown(() => k.stop());
  const stored = (name: string) => storedValueIn(k.dataDir, `/registry/secrets/default/${name}`).toString('latin1').match(/^k8s:enc:\w+:v1:\w+:/)?.[0];
  t.is((await k.kubectl(['create', 'secret', 'generic', 'before', `--from-literal=password=${password}`])).code, 0);
  t.is(stored('before'), 'k8s:enc:aesgcm:v1:key1:');

  const secretbox = `secretbox: {keys: [{name: box, secret: "${key2}"}]}`;
  writeFileSync(file, readFileSync(secretsConfig(secretbox, aesgcm(['key1', key1]))));
  const probe = await eventually(
    async () => {
      const name = `probe-${Date.now()}`;
      const created = await k.kubectl(['create', 'secret', 'generic', name, '--from-literal=password=x']);
      return created.code === 0 ? stored(name) : describe(created);
    },
    (value) => value === 'k8s:enc:secretbox:v1:box:',
  );
  t.is(probe, 'k8s:enc:secretbox:v1:box:', 'new Secrets are written with the reloaded first provider');
  const before = await k.kubectl(['get', 'secret', 'before', '-o', 'jsonpath={.data.password}']);
  t.is(before.stdout, base64(password), describe(before));

  writeFileSync(file, readFileSync(secretsConfig('secretbox: {keys: [{name: box}]}')));
  // a klog text line: the message quoted after the header
  const refusal = `] "error processing encryption config file ${file}: error while parsing file: resources[0].providers[0].secretbox.keys[0].secret: Required value: secret is a mandatory field for a key; the previous configuration stays in force"\n`;
  const output = await eventually(async () => k.output(), (text) => text.includes(refusal));
  t.true(output.includes(refusal), output);
  t.is((await k.kubectl(['create', 'secret', 'generic', 'after', '--from-literal=password=y'])).code, 0);
  t.is(stored('after'), 'k8s:enc:secretbox:v1:box:', 'the configuration in force stayed');
});

test.serial('--encryption-provider-config-automatic-reload without --encryption-provider-config is refused, as kube-apiserver refuses it', async (t) => {
  const err = await t.throwsAsync(startKapi({ args: ['--encryption-provider-config-automatic-reload'] }));
  t.true(err!.message.includes('kapi: --encryption-provider-config-automatic-reload must be set with --encryption-provider-config'), err!.message);
});
