/**
 * Encryption at rest below the API: what etcd holds for an encrypted Secret, a value moved to another key (it does not
 * decrypt there: the key is authenticated), the watch cache meeting a value it cannot read, and an unchanged update of
 * a value under a retired key (rewritten with the new one, as kube's storage does); secretbox's layout on etcd and
 * rotation between aesgcm and secretbox by reordering providers.
 */
import test from 'ava';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { Etcd3 } from 'etcd3';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { encryptionAtRest } from '../../index.js';
import { useEtcd } from '../helpers/use-etcd.js';
import { createNamespace, startTestServer } from '../helpers/test-server.js';
import { removeDir, tempDir, tempFile } from '../helpers/kapi-process.js';

const etcd = useEtcd();

const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');
/** A provider with these keys (name, fill byte of its 32-byte secret), the first writing, as a YAML list item. */
const keyed = (provider: 'aesgcm' | 'secretbox', ...keys: [string, number][]) =>
  `${provider}: {keys: [${keys.map(([name, fill]) => `{name: ${name}, secret: "${key(fill)}"}`).join(', ')}]}`;
/** An EncryptionConfiguration file for secrets with these providers. */
const configFile = (...providers: string[]) =>
  tempFile(
    'encryption.yaml',
    `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n${providers.map((p) => `  - ${p}\n`).join('')}`,
  );
/** aesgcm for secrets with these keys, the first writing. */
const encryption = (...keys: [string, number][]) => encryptionAtRest({ encryptionProviderConfig: configFile(keyed('aesgcm', ...keys)) });
/** The value kapi.db in `dataDir` holds for a key now. */
function storedInSqlite(dataDir: string, key: string): Buffer {
  const db = new Database(join(dataDir, 'kapi.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT kv.value AS value FROM kv_current JOIN kv ON kv.id = kv_current.id WHERE kv_current.name = ?').get(key) as { value: Buffer };
    return row.value;
  } finally {
    db.close();
  }
}
const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { token: Buffer.from('etcd-at-rest').toString('base64') } });

test.serial('on etcd a Secret is stored behind k8s:enc:aesgcm:v1:key1:, not in the clear; moved to another key it does not decrypt', async (t) => {
  const prefix = '/encrypted';
  const server = await startTestServer({ storage: 'etcd', etcd: { endpoints: etcd().endpoints, prefix }, modules: [encryption(['key1', 1])] });
  const client = new Etcd3({ hosts: etcd().endpoints });
  t.teardown(async () => {
    client.close();
    await server.close();
  });
  const ns = await createNamespace(server, 'enc');
  const created = await server.request('POST', `/api/v1/namespaces/${ns}/secrets`, { body: secret('s1') });
  t.is(created.status, 201, created.text);

  const raw = (await client.get(`${prefix}/secrets/${ns}/s1`).buffer())!;
  t.is(raw.subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key1:');
  t.false(raw.includes(Buffer.from('etcd-at-rest').toString('base64')));
  t.false(raw.includes('"kind":"Secret"'));
  const get = await server.request('GET', `/api/v1/namespaces/${ns}/secrets/s1`);
  t.is(get.status, 200, get.text);
  t.is(get.body.data.token, Buffer.from('etcd-at-rest').toString('base64'));

  // The same bytes under another key: authenticated data is the key, so they are refused there, as kube refuses them.
  const watch = await server.watch(`/api/v1/namespaces/${ns}/secrets?watch=true&resourceVersion=${get.body.metadata.resourceVersion}`);
  await client.put(`${prefix}/secrets/${ns}/moved`).value(raw);
  const moved = await server.request('GET', `/api/v1/namespaces/${ns}/secrets/moved`);
  t.is(moved.status, 500, moved.text);
  t.like(moved.body, { reason: 'InternalError', message: 'Internal error occurred: cipher: message authentication failed' });

  // The watch cache cannot read the new value: its watches end and it reloads (no crash); lists fail as kube's do.
  await watch.ended;
  const list = await server.request('GET', `/api/v1/namespaces/${ns}/secrets`);
  t.is(list.status, 500, list.text);
  t.is(list.body.message, `Internal error occurred: unable to transform key "/registry/secrets/${ns}/moved": cipher: message authentication failed`);
  t.is((await server.request('GET', `/api/v1/namespaces/${ns}/configmaps`)).status, 200, 'other resources are served');

  // Once the value is gone the cache loads again and serves the collection.
  await client.delete().key(`${prefix}/secrets/${ns}/moved`);
  const names = await server.waitFor(async () => {
    const res = await server.request('GET', `/api/v1/namespaces/${ns}/secrets?resourceVersion=0`);
    return res.status === 200 && res.body.items.map((s: { metadata: { name: string } }) => s.metadata.name);
  }, 10_000, 'the secrets cache reloaded');
  t.deepEqual(names, ['s1']);
});

test.serial('an unchanged update of a Secret under a retired key rewrites it with the new first key', async (t) => {
  const dataDir = tempDir('kapi-it-encryption-');
  t.teardown(() => removeDir(dataDir));
  const first = await startTestServer({ dataDir, modules: [encryption(['key1', 1])] });
  const created = await first.request('POST', '/api/v1/namespaces/default/secrets?fieldManager=rotation', { body: secret('s1') });
  t.is(created.status, 201, created.text);
  await first.close();

  const rotated = await startTestServer({ dataDir, modules: [encryption(['key2', 2], ['key1', 1])] });
  t.teardown(() => rotated.close());
  const stored = () => storedInSqlite(dataDir, '/registry/secrets/default/s1').subarray(0, 23).toString();
  t.is(stored(), 'k8s:enc:aesgcm:v1:key1:');
  const current = await rotated.request('GET', '/api/v1/namespaces/default/secrets/s1');
  const put = await rotated.request('PUT', '/api/v1/namespaces/default/secrets/s1?fieldManager=rotation', { body: current.body });
  t.is(put.status, 200, put.text);
  t.deepEqual({ ...put.body.metadata, resourceVersion: undefined }, { ...current.body.metadata, resourceVersion: undefined }, 'the object did not change');
  t.true(Number(put.body.metadata.resourceVersion) > Number(current.body.metadata.resourceVersion), 'but it was written again');
  t.is(stored(), 'k8s:enc:aesgcm:v1:key2:');
  // Now current under the first key, the same update is a no-op again.
  const again = await rotated.request('PUT', '/api/v1/namespaces/default/secrets/s1?fieldManager=rotation', { body: put.body });
  t.is(again.body.metadata.resourceVersion, put.body.metadata.resourceVersion);
});

test.serial('on etcd a Secret under secretbox is k8s:enc:secretbox:v1:key1:, a nonce and a NaCl box of its JSON, and reads back', async (t) => {
  const prefix = '/secretbox';
  const modules = [encryptionAtRest({ encryptionProviderConfig: configFile(keyed('secretbox', ['key1', 1]), 'identity: {}') })];
  const server = await startTestServer({ storage: 'etcd', etcd: { endpoints: etcd().endpoints, prefix }, modules });
  const client = new Etcd3({ hosts: etcd().endpoints });
  t.teardown(async () => {
    client.close();
    await server.close();
  });
  const ns = await createNamespace(server, 'box');
  const created = await server.request('POST', `/api/v1/namespaces/${ns}/secrets`, { body: secret('s1') });
  t.is(created.status, 201, created.text);

  const raw = (await client.get(`${prefix}/secrets/${ns}/s1`).buffer())!;
  const head = 'k8s:enc:secretbox:v1:key1:';
  t.is(raw.subarray(0, head.length).toString(), head);
  t.false(raw.includes(Buffer.from('etcd-at-rest').toString('base64')));
  t.false(raw.includes('"kind":"Secret"'));
  // Opened as kube would: a 24-byte nonce, then NaCl's box (tag ‖ ciphertext) under the key's 32 bytes.
  const body = raw.subarray(head.length);
  const json = JSON.parse(Buffer.from(xsalsa20poly1305(Buffer.alloc(32, 1), body.subarray(0, 24)).decrypt(body.subarray(24))).toString());
  t.like(json, { kind: 'Secret', metadata: { name: 's1', namespace: ns }, data: secret('s1').data });

  const get = await server.request('GET', `/api/v1/namespaces/${ns}/secrets/s1`);
  t.is(get.status, 200, get.text);
  t.is(get.body.data.token, Buffer.from('etcd-at-rest').toString('base64'));
  const list = await server.request('GET', `/api/v1/namespaces/${ns}/secrets`);
  t.deepEqual(list.body.items.map((s: { metadata: { name: string } }) => s.metadata.name), ['s1']);
});

test.serial('rotation by reordering providers: aesgcm to secretbox and back, each unchanged update rewriting with the first', async (t) => {
  const dataDir = tempDir('kapi-it-secretbox-');
  t.teardown(() => removeDir(dataDir));
  const gcm = keyed('aesgcm', ['gcm', 1]);
  const box = keyed('secretbox', ['box', 2]);
  const serve = (...providers: string[]) => startTestServer({ dataDir, modules: [encryptionAtRest({ encryptionProviderConfig: configFile(...providers) })] });
  const path = '/api/v1/namespaces/default/secrets/s1';
  const stored = () => storedInSqlite(dataDir, '/registry/secrets/default/s1').toString('latin1').match(/^k8s:enc:\w+:v1:\w+:/)?.[0];
  /** Reads the Secret and writes it back unchanged, as `kubectl get -o json | kubectl replace -f -` does. */
  const rewrite = async (server: Awaited<ReturnType<typeof serve>>) => {
    const current = await server.request('GET', path);
    t.is(current.status, 200, current.text);
    t.is(current.body.data.token, secret('s1').data.token);
    const put = await server.request('PUT', `${path}?fieldManager=rotation`, { body: current.body });
    t.is(put.status, 200, put.text);
  };

  const first = await serve(gcm);
  t.is((await first.request('POST', '/api/v1/namespaces/default/secrets?fieldManager=rotation', { body: secret('s1') })).status, 201);
  await first.close();
  t.is(stored(), 'k8s:enc:aesgcm:v1:gcm:');

  const toBox = await serve(box, gcm);
  await rewrite(toBox);
  await toBox.close();
  t.is(stored(), 'k8s:enc:secretbox:v1:box:');

  const back = await serve(gcm, box);
  t.teardown(() => back.close());
  await rewrite(back);
  t.is(stored(), 'k8s:enc:aesgcm:v1:gcm:');
});
