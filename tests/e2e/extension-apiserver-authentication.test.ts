// kapi as an extension API server of a front kapi (k8s.io/apiserver's delegated authentication): the backend sends the
// bearer tokens it does not know to the front as TokenReviews, and trusts the client CA and front-proxy settings the
// front publishes in kube-system/extension-apiserver-authentication. Two `kapi serve` processes over HTTPS on loopback.
import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { createCa, createClientCert, type CertificatePem } from '../../plugins/auth/certificates.js';
import { kubeconfigYaml } from '../../plugins/auth/kubeconfig.js';
import { describe, eventually, startKapi, tempFile, useKapi, type KapiProcess } from '../helpers/kapi-process.js';

const day = 24 * 60 * 60 * 1000;
const frontProxyCa = await createCa('front-proxy-ca');
const tokenFile = tempFile('tokens.csv', 'alice-token,alice,a-1,"devs,ops"\n');
const front = useKapi({
  args: [
    '--storage',
    'memory',
    '--token-auth-file',
    tokenFile,
    '--requestheader-client-ca-file',
    tempFile('front-proxy-ca.crt', frontProxyCa.certPem),
    '--requestheader-allowed-names',
    'front-proxy-client',
    // not the backend's: the front checks tokens for its own audiences
    '--api-audiences',
    'https://front.example',
  ],
});
let backend: KapiProcess;
/** The front's API as the backend's ServiceAccount, bound to system:auth-delegator and extension-apiserver-authentication-reader. */
let delegatorKubeconfig: string;

/** A kubeconfig for `server` (its URL and CA) with a bearer token. */
function kubeconfigFor(server: KapiProcess, token: string, path = '') {
  return tempFile(
    'kubeconfig',
    kubeconfigYaml({ server: server.url + path, caCertPem: readFileSync(join(server.dataDir, 'pki', 'ca.crt'), 'utf8'), token, clusterName: 'c', userName: 'u', contextName: 'x' }),
  );
}

async function kubectlOk(server: KapiProcess, args: string[], stdin?: string): Promise<string> {
  const res = await server.kubectl(args, stdin === undefined ? {} : { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res.stdout;
}

test.serial.before(async () => {
  await kubectlOk(front, ['create', 'serviceaccount', 'backend']);
  await kubectlOk(front, ['create', 'clusterrolebinding', 'backend-auth-delegator', '--clusterrole=system:auth-delegator', '--serviceaccount=default:backend']);
  await kubectlOk(front, ['create', 'rolebinding', '-n', 'kube-system', 'backend-auth-reader', '--role=extension-apiserver-authentication-reader', '--serviceaccount=default:backend']);
  const token = (await kubectlOk(front, ['create', 'token', 'backend'])).trim();
  delegatorKubeconfig = kubeconfigFor(front, token);
  backend = await startKapi({ args: ['--storage', 'memory', '--authentication-kubeconfig', delegatorKubeconfig] });
});

test.after.always(async () => {
  await backend?.stop();
});

/** `kubectl auth whoami -o json` at `server` with `token`. */
function whoami(server: KapiProcess, token: string) {
  return server.kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: kubeconfigFor(server, token) });
}

/** POSTs a SelfSubjectReview to `server` (the backend) over HTTPS with a client certificate and headers. */
function whoamiByCert(cert: CertificatePem, headers: Record<string, string | string[]>, server = backend): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      { method: 'POST', ca: readFileSync(join(server.dataDir, 'pki', 'ca.crt')), cert: cert.certPem, key: cert.keyPem, headers: { 'Content-Type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

test('a bearer token of the front\'s user is the front\'s user at the backend (TokenReview at the front)', async (t) => {
  const res = await whoami(backend, 'alice-token');
  t.is(res.code, 0, describe(res));
  t.deepEqual(JSON.parse(res.stdout).status.userInfo, { username: 'alice', uid: 'a-1', groups: ['devs', 'ops', 'system:authenticated'] });
});

test('a ServiceAccount token of the front, for the front\'s audiences, is that ServiceAccount at the backend', async (t) => {
  await kubectlOk(front, ['create', 'serviceaccount', 'carol']);
  const token = (await kubectlOk(front, ['create', 'token', 'carol'])).trim();
  const res = await whoami(backend, token);
  t.is(res.code, 0, describe(res));
  const user = JSON.parse(res.stdout).status.userInfo;
  t.is(user.username, 'system:serviceaccount:default:carol');
  t.deepEqual(user.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
});

test('a token the front does not know is 401 at the backend', async (t) => {
  const res = await whoami(backend, 'nobody-token');
  t.is(res.code, 1, describe(res));
  t.regex(res.stderr, /^error: You must be logged in to the server \((Unauthorized|the server has asked for the client to provide credentials)\)\n$/m);
});

test('the backend trusts the front-proxy CA the front publishes: X-Remote-* from a certificate it signs, with an allowed name', async (t) => {
  const proxy = await createClientCert(frontProxyCa, { username: 'front-proxy-client', groups: [] }, day);
  const res = await whoamiByCert(proxy, { 'X-Remote-User': 'bob', 'X-Remote-Group': ['devs', 'ops'], 'X-Remote-Extra-Scopes': 'read' });
  t.is(res.status, 201, JSON.stringify(res.body));
  t.deepEqual(res.body.status.userInfo, { username: 'bob', groups: ['devs', 'ops', 'system:authenticated'], extra: { scopes: ['read'] } });
  const notAllowed = await createClientCert(frontProxyCa, { username: 'mallory', groups: [] }, day);
  const refused = await whoamiByCert(notAllowed, { 'X-Remote-User': 'bob' });
  t.is(refused.status, 401);
  t.deepEqual(refused.body, unauthorized);
});

test('the backend trusts the client CA the front publishes (the front\'s own CA here)', async (t) => {
  const pki = join(front.dataDir, 'pki');
  const frontCa = { certPem: readFileSync(join(pki, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'ca.key'), 'utf8') };
  const carol = await createClientCert(frontCa, { username: 'carol', groups: ['testers'] }, day);
  const res = await whoamiByCert(carol, {});
  t.is(res.status, 201, JSON.stringify(res.body));
  t.deepEqual(res.body.status.userInfo, { username: 'carol', groups: ['testers', 'system:authenticated'] });
});

// serial: before the test that adds a CA to the ConfigMap
test.serial('the published ConfigMap holds the front\'s flags as kube writes them', async (t) => {
  const cm = JSON.parse(await kubectlOk(front, ['get', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication', '-o', 'json']));
  const fingerprints = (pem: string) => (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map((c) => new X509Certificate(c).fingerprint256);
  t.deepEqual(Object.keys(cm.data).sort(), [
    'client-ca-file',
    'requestheader-allowed-names',
    'requestheader-client-ca-file',
    'requestheader-extra-headers-prefix',
    'requestheader-group-headers',
    'requestheader-username-headers',
  ]);
  t.deepEqual(fingerprints(cm.data['client-ca-file']), fingerprints(readFileSync(join(front.dataDir, 'pki', 'ca.crt'), 'utf8')));
  t.deepEqual(fingerprints(cm.data['requestheader-client-ca-file']), fingerprints(frontProxyCa.certPem));
  t.is(cm.data['requestheader-allowed-names'], '["front-proxy-client"]');
  t.is(cm.data['requestheader-username-headers'], '["X-Remote-User"]');
  t.is(cm.data['requestheader-group-headers'], '["X-Remote-Group"]');
  t.is(cm.data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
});

test('the backend follows the ConfigMap while serving: a request-header CA added at the front is trusted within seconds', async (t) => {
  const addedCa = await createCa('added-front-proxy-ca');
  const proxy = await createClientCert(addedCa, { username: 'front-proxy-client', groups: [] }, day);
  t.is((await whoamiByCert(proxy, { 'X-Remote-User': 'dave' })).status, 401);
  const cm = JSON.parse(await kubectlOk(front, ['get', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication', '-o', 'json']));
  const bundle = cm.data['requestheader-client-ca-file'] + addedCa.certPem;
  await kubectlOk(front, ['patch', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication', '--type=merge', '-p', JSON.stringify({ data: { 'requestheader-client-ca-file': bundle } })]);
  const res = await eventually(() => whoamiByCert(proxy, { 'X-Remote-User': 'dave' }), (r) => r.status === 201, 30_000, 1000);
  t.is(res.status, 201, JSON.stringify(res.body));
  t.is(res.body.status.userInfo.username, 'dave');
});

test('a backend whose user may not read the ConfigMap does not start, with kube\'s message; it does with --authentication-tolerate-lookup-failure', async (t) => {
  const alice = kubeconfigFor(front, 'alice-token');
  const err = await t.throwsAsync(startKapi({ args: ['--storage', 'memory', '--authentication-kubeconfig', alice] }));
  t.regex(
    err!.message,
    /kapi: unable to load configmap based request-header-client-ca-file: configmaps "extension-apiserver-authentication" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "kube-system"\n/,
  );
  const tolerant = await startKapi({ args: ['--storage', 'memory', '--authentication-kubeconfig', alice, '--authentication-tolerate-lookup-failure'] });
  t.regex(tolerant.output(), /Continuing without authentication configuration/);
  await tolerant.stop();
});

test('--authentication-skip-lookup: the front still reviews tokens, but what it publishes is not trusted', async (t) => {
  const skipping = await startKapi({ args: ['--storage', 'memory', '--authentication-kubeconfig', delegatorKubeconfig, '--authentication-skip-lookup'] });
  try {
    const res = await whoami(skipping, 'alice-token');
    t.is(res.code, 0, describe(res));
    t.is(JSON.parse(res.stdout).status.userInfo.username, 'alice');
    const proxy = await createClientCert(frontProxyCa, { username: 'front-proxy-client', groups: [] }, day);
    const byProxy = await whoamiByCert(proxy, { 'X-Remote-User': 'bob' }, skipping);
    t.is(byProxy.status, 401);
  } finally {
    await skipping.stop();
  }
});

test('--authentication-token-webhook-config-file: a kubeconfig of a TokenReview endpoint (the front\'s, v1) reviews unknown tokens', async (t) => {
  const delegator = readFileSync(delegatorKubeconfig, 'utf8').match(/token: (\S+)/)![1]!;
  const reviewed = await startKapi({
    args: ['--storage', 'memory', '--authentication-token-webhook-config-file', kubeconfigFor(front, delegator, '/apis/authentication.k8s.io/v1/tokenreviews'), '--authentication-token-webhook-version', 'v1'],
  });
  try {
    const res = await whoami(reviewed, 'alice-token');
    t.is(res.code, 0, describe(res));
    t.is(JSON.parse(res.stdout).status.userInfo.username, 'alice');
  } finally {
    await reviewed.stop();
  }
});
