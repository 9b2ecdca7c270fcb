import test from 'ava';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { clientUrl, writeKubeconfig } from '../../../../plugins/auth/index.js';

test('writes a private kubeconfig with the CA, the token and a current context', async (t) => {
  const path = join(await mkdtemp(join(tmpdir(), 'kapi-kubeconfig-')), 'kubeconfig');
  const caCertPem = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
  await writeKubeconfig(path, { server: 'https://127.0.0.1:6443', caCertPem, token: 'tok', clusterName: 'kapi', userName: 'kapi-admin', contextName: 'kapi' });
  t.is((await stat(path)).mode & 0o777, 0o600);
  const config = parse(await readFile(path, 'utf8'));
  t.like(config, {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'kapi',
    clusters: [{ name: 'kapi', cluster: { server: 'https://127.0.0.1:6443' } }],
    users: [{ name: 'kapi-admin', user: { token: 'tok' } }],
    contexts: [{ name: 'kapi', context: { cluster: 'kapi', user: 'kapi-admin' } }],
  });
  t.is(Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), caCertPem);
});

test('clients reach unspecified bind addresses at 127.0.0.1', (t) => {
  t.is(clientUrl('0.0.0.0', 6443), 'https://127.0.0.1:6443');
  t.is(clientUrl('::', 6443), 'https://127.0.0.1:6443');
  t.is(clientUrl('127.0.0.1', 1234), 'https://127.0.0.1:1234');
  t.is(clientUrl('::1', 6443), 'https://[::1]:6443');
  t.is(clientUrl('localhost', 6443), 'https://localhost:6443');
});
