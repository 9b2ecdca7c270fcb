/**
 * `encryptionAtRest({ automaticReload: true })` (kube's `--encryption-provider-config-automatic-reload`): the
 * EncryptionConfiguration file is followed while serving — a valid change replaces the providers in force without a
 * restart, an invalid one is logged and leaves them in force; without it, changes are ignored.
 */
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { encryptionAtRest } from '../../index.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { removeDir, tempDir, tempFile } from '../helpers/kapi-process.js';
import { withCapturedLog } from '../helpers/captured-log.js';

const keyed = (provider: 'aesgcm' | 'secretbox', name: string, fill: number, size = 32) =>
  `${provider}: {keys: [{name: ${name}, secret: "${Buffer.alloc(size, fill).toString('base64')}"}]}`;
const config = (...providers: string[]) =>
  `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n${providers.map((p) => `  - ${p}\n`).join('')}`;
const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { token: Buffer.from(`token of ${name}`).toString('base64') } });

/** A server on its own kapi.db with encryption configured by `file`. */
async function serve(t: import('ava').ExecutionContext, file: string, automaticReload: boolean) {
  const dataDir = tempDir('kapi-it-encryption-reload-');
  const server = await startTestServer({ dataDir, modules: [encryptionAtRest({ encryptionProviderConfig: file, automaticReload })] });
  t.teardown(async () => {
    await server.close();
    removeDir(dataDir);
  });
  /** The provider and key prefix of the Secret's value in kapi.db ('' when stored as it is). */
  const storedAs = (name: string) => {
    const db = new Database(join(dataDir, 'kapi.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT kv.value AS value FROM kv_current JOIN kv ON kv.id = kv_current.id WHERE kv_current.name = ?').get(`/registry/secrets/default/${name}`) as { value: Buffer };
      return row.value.toString('latin1').match(/^k8s:enc:\w+:v1:\w+:/)?.[0] ?? '';
    } finally {
      db.close();
    }
  };
  return { server, storedAs };
}

async function create(t: import('ava').ExecutionContext, server: TestServer, name: string) {
  const res = await server.request('POST', '/api/v1/namespaces/default/secrets?fieldManager=test', { body: secret(name) });
  t.is(res.status, 201, res.text);
}

async function readBack(t: import('ava').ExecutionContext, server: TestServer, name: string) {
  const res = await server.request('GET', `/api/v1/namespaces/default/secrets/${name}`);
  t.is(res.status, 200, res.text);
  t.is(res.body.data.token, secret(name).data.token);
}

test.serial('a new first provider in the file is in force without a restart; old values read and are rewritten', async (t) => {
  const file = tempFile('encryption.yaml', config(keyed('aesgcm', 'key1', 1)));
  const { server, storedAs } = await serve(t, file, true);
  await create(t, server, 's1');
  t.is(storedAs('s1'), 'k8s:enc:aesgcm:v1:key1:');

  writeFileSync(file, config(keyed('secretbox', 'box', 2), keyed('aesgcm', 'key1', 1)));
  // Once the new configuration is in force, s1 is under a provider that is no longer first: an unchanged update
  // rewrites it (before, the same update is a no-op).
  await server.waitFor(async () => {
    const current = await server.request('GET', '/api/v1/namespaces/default/secrets/s1');
    await server.request('PUT', '/api/v1/namespaces/default/secrets/s1?fieldManager=test', { body: current.body });
    return storedAs('s1') === 'k8s:enc:secretbox:v1:box:';
  }, 10_000, 's1 rewritten with the reloaded first provider');
  await create(t, server, 's2');
  t.is(storedAs('s2'), 'k8s:enc:secretbox:v1:box:');
  await readBack(t, server, 's1');
  await readBack(t, server, 's2');
});

test.serial('an invalid file is logged and the configuration in force stays; a valid one later is taken', async (t) => {
  const file = tempFile('encryption.yaml', config(keyed('secretbox', 'box', 2)));
  const { server, storedAs } = await serve(t, file, true);
  await create(t, server, 's1');

  await withCapturedLog(async (log) => {
    writeFileSync(file, config(keyed('secretbox', 'short', 3, 16)));
    const line = await server.waitFor(() => log.find((l) => l.msg.includes('error processing encryption config file')), 10_000, 'the refusal logged');
    t.is(
      line.msg,
      `error processing encryption config file ${file}: error while parsing file: resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]; the previous configuration stays in force`,
    );
  });
  await create(t, server, 's2');
  t.is(storedAs('s2'), 'k8s:enc:secretbox:v1:box:', 'still the configuration in force');
  await readBack(t, server, 's1');

  // A valid file with the key added second: the reload keeps reading what the first key wrote.
  writeFileSync(file, config(keyed('aesgcm', 'key1', 1), keyed('secretbox', 'box', 2)));
  await server.waitFor(async () => {
    await server.request('DELETE', '/api/v1/namespaces/default/secrets/probe');
    const created = await server.request('POST', '/api/v1/namespaces/default/secrets', { body: secret('probe') });
    return created.status === 201 && storedAs('probe') === 'k8s:enc:aesgcm:v1:key1:';
  }, 10_000, 'new writes with the reloaded first provider');
  await readBack(t, server, 's1');
  await readBack(t, server, 's2');
});

test.serial('without automatic reload a change to the file is ignored, as kube-apiserver ignores it', async (t) => {
  const file = tempFile('encryption.yaml', config(keyed('aesgcm', 'key1', 1)));
  const { server, storedAs } = await serve(t, file, false);
  writeFileSync(file, config(keyed('secretbox', 'box', 2), keyed('aesgcm', 'key1', 1)));
  // Longer than a reload takes when it is on (the tests above): the file's events are settled within 100 ms.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await create(t, server, 's1');
  t.is(storedAs('s1'), 'k8s:enc:aesgcm:v1:key1:');
});
