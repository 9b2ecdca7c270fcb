// examples/aggregated-server as its README runs it: a front `kapi serve`, prepare.js making the certificates and the
// manifests of deploy/, applied at the front, and the example started with a kubeconfig of its ServiceAccount. kubectl
// talks to the front, but for users who go straight to the example with credentials the front issued.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClientCert, kubeconfigYaml, type CertificatePem } from '../../index.js';
import { endpointIp } from '../helpers/aggregated-backend.js';
import { startExampleProcess, type ExampleProcess } from '../helpers/example-process.js';
import { describe, removeDir, repoPath, tempDir, tempFile, useKapi, type KapiProcess } from '../helpers/kapi-process.js';

const tokens = tempFile('tokens.csv', 'alice-token,alice,u-alice,"metrics-viewers"\nbob-token,bob,u-bob,""\n');
const front = useKapi({ args: ['--storage', 'memory', '--token-auth-file', tokens] });
const dataDir = tempDir('kapi-e2e-aggregated-example-');
const address = endpointIp();
let example: ExampleProcess;

async function ok(kapi: KapiProcess, args: string[], stdin?: string): Promise<string> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res.stdout;
}

/** `node dist/examples/aggregated-server/prepare.js` for the example's PORT. */
function prepare(port: number): Promise<unknown> {
  return promisify(execFile)(process.execPath, [repoPath('dist/examples/aggregated-server/prepare.js')], { env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), ADDRESS: address } });
}

test.before(async () => {
  // the certificates first (the example serves with them), the manifests again once its port is known
  await prepare(8443);
  await ok(front, ['apply', '-f', join(dataDir, 'deploy', '00-namespace.yaml'), '-f', join(dataDir, 'deploy', '10-auth-delegation.yaml')]);
  const token = (await ok(front, ['create', 'token', '-n', 'metrics-example', 'metrics-server'])).trim();
  const caCertPem = readFileSync(join(front.dataDir, 'pki', 'ca.crt'), 'utf8');
  const frontKubeconfig = tempFile('front.kubeconfig', kubeconfigYaml({ server: front.url, caCertPem, token, clusterName: 'front', userName: 'metrics-server', contextName: 'front' }));
  example = await startExampleProcess('aggregated-server', { FRONT_KUBECONFIG: frontKubeconfig, DATA_DIR: dataDir, BIND_ADDRESS: address });
  await prepare(Number(new URL(example.url).port));
  await ok(front, ['apply', '-f', join(dataDir, 'deploy')]);
  await ok(front, ['create', 'clusterrolebinding', 'metrics-viewers', '--clusterrole=view', '--group=metrics-viewers']);
  await ok(front, ['wait', '--for=condition=Available', '--timeout=30s', 'apiservice/v1.metrics.example.com']);
});

test.after.always(async () => {
  await example?.stop();
  removeDir(dataDir);
});

test.serial('the APIService of deploy/ is Available at the front (Passed: the example answers its discovery)', async (t) => {
  const got = await ok(front, ['get', 'apiservice', 'v1.metrics.example.com']);
  t.regex(got, /^v1\.metrics\.example\.com\s+metrics-example\/api\s+True\s+\S+\s*$/m);
  t.is(await ok(front, ['get', 'apiservice', 'v1.metrics.example.com', '-o', 'jsonpath={.status.conditions[0].reason}']), 'Passed');
});

test.serial('through the front (TLS verified with the caBundle prepare.js filled in), a user the front authorizes reads the computed nodemetrics', async (t) => {
  const list = JSON.parse(await ok(front, ['get', '--raw', '/apis/metrics.example.com/v1/nodemetrics', '--token', 'alice-token']));
  t.is(list.kind, 'NodeMetricsList');
  t.deepEqual(
    list.items.map((n: any) => n.metadata.name),
    [os.hostname().toLowerCase()],
  );
  t.regex(list.items[0].usage.cpu, /^\d+m$/);
  t.regex(list.items[0].usage.memory, /^\d+Ki$/);
});

test.serial('through the front, an alert created by the admin is stored by the example and read by a user the front authorizes', async (t) => {
  const alerts = '/apis/metrics.example.com/v1/namespaces/default/alerts';
  const alert = JSON.stringify({ apiVersion: 'metrics.example.com/v1', kind: 'Alert', metadata: { name: 'busy' }, spec: { metric: 'cpu', above: '1500m' } });
  const created = JSON.parse(await ok(front, ['create', '--raw', alerts, '-f', '-'], alert));
  t.is(created.metadata.resourceVersion, '1');
  const list = JSON.parse(await ok(front, ['get', '--raw', alerts, '--token', 'alice-token']));
  t.deepEqual(
    list.items.map((a: any) => [a.metadata.name, a.spec]),
    [['busy', { metric: 'cpu', above: '1500m' }]],
  );
  const invalid = await front.kubectl(['create', '--raw', alerts, '-f', '-'], { stdin: alert.replace('"cpu"', '"disk"').replace('busy', 'disk') });
  t.is(invalid.code, 1);
  t.regex(invalid.stderr, /The Alert "disk" is invalid: spec\.metric: Unsupported value: "disk": supported values: "cpu", "memory"/);
});

test.serial('a user the front does not authorize is refused by the front', async (t) => {
  for (const path of ['/apis/metrics.example.com/v1/nodemetrics', '/apis/metrics.example.com/v1/namespaces/default/alerts']) {
    const res = await front.kubectl(['get', '--raw', path, '--token', 'bob-token']);
    t.is(res.code, 1, describe(res));
    t.regex(res.stderr, /Error from server \(Forbidden\): (nodemetrics|alerts)\.metrics\.example\.com is forbidden: User "bob" cannot list resource "(nodemetrics|alerts)" in API group "metrics\.example\.com"/);
  }
});

/** A kubeconfig of the example itself (its CA from prepare.js), bypassing the front, with a token or a client certificate. */
function straightToExample(name: string, credentials: { token: string } | { clientCertificate: CertificatePem }): string {
  const caCertPem = readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8');
  return tempFile(`example-${name}.kubeconfig`, kubeconfigYaml({ server: example.url, caCertPem, ...credentials, clusterName: 'example', userName: name, contextName: 'example' }));
}

test.serial('straight to the example\'s port with credentials the front issued, the front\'s RBAC still decides (SubjectAccessReview)', async (t) => {
  const nodemetrics = '/apis/metrics.example.com/v1/nodemetrics';
  const alice = await front.kubectl(['get', '--raw', nodemetrics], { kubeconfig: straightToExample('alice', { token: 'alice-token' }) });
  t.is(alice.code, 0, describe(alice));
  t.is(JSON.parse(alice.stdout).kind, 'NodeMetricsList');
  // bob by his token (reviewed at the front), then by a client certificate of the front's CA (which the front publishes)
  const frontCa = { certPem: readFileSync(join(front.dataDir, 'pki', 'ca.crt'), 'utf8'), keyPem: readFileSync(join(front.dataDir, 'pki', 'ca.key'), 'utf8') };
  const bobCertificate = await createClientCert(frontCa, { username: 'bob', groups: [] }, 3_600_000);
  for (const kubeconfig of [straightToExample('bob-token', { token: 'bob-token' }), straightToExample('bob-cert', { clientCertificate: bobCertificate })]) {
    const bob = await front.kubectl(['get', '--raw', nodemetrics], { kubeconfig });
    t.is(bob.code, 1, describe(bob));
    t.is(bob.stderr, 'Error from server (Forbidden): nodemetrics.metrics.example.com is forbidden: User "bob" cannot list resource "nodemetrics" in API group "metrics.example.com" at the cluster scope\n');
  }
});
