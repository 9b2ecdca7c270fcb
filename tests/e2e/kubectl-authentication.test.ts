// kube's authentication chain through the real kubectl against `kapi serve`: client certificates from `kapi kubeconfig`
// (and refused ones), a --token-auth-file user, ServiceAccount tokens in a TokenReview, anonymous requests with and
// without --anonymous-auth, and bad input that must be a 4xx.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCa, createClientCert, createServingCert, type CertificatePem } from '../../plugins/auth/certificates.js';
import { kubeconfigYaml } from '../../plugins/auth/kubeconfig.js';
import { issueOddCert } from '../helpers/client-certs.js';
import { describe, removeDir, repoRoot, startKapi, tempDir, tempFile, useKapi, type KapiProcess } from '../helpers/kapi-process.js';

const day = 24 * 60 * 60 * 1000;
const tokenFile = tempFile('tokens.csv', 'bob-token,bob,1002,"viewers,auditors"\ncarol-token,carol,1003\n');
const kapi = useKapi({ args: ['--storage', 'memory', '--token-auth-file', tokenFile] });
/**
 * kubectl's last line for a 401: `(Unauthorized)` when the answer came to its request, kube's `(the server has asked
 * for the client to provide credentials)` when it came to the discovery before it (no discovery cache yet).
 */
const unauthorized = /^error: You must be logged in to the server \((Unauthorized|the server has asked for the client to provide credentials)\)\n$/m;

const unauthorizedStatus = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
const anonymousForbidden = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'forbidden: User "system:anonymous" cannot get path "/api"', reason: 'Forbidden', details: {}, code: 403 });

const run = promisify(execFile);

/** GET `path` of `server` over HTTPS, trusting its CA, with `headers` (no credentials unless given). */
function get(server: KapiProcess, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const ca = readFileSync(join(server.dataDir, 'pki', 'ca.crt'));
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { ca, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `node bin/kapi ARGS`: exit code, stdout and stderr. */
async function kapiCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/kapi', ...args], { cwd: repoRoot, encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function kapiCa(): CertificatePem {
  const pki = join(kapi.dataDir, 'pki');
  return { certPem: readFileSync(join(pki, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'ca.key'), 'utf8') };
}

/** A kubeconfig for kapi (its URL and CA) whose user holds `cert`, or no credentials at all. */
function kubeconfigFor(cert?: CertificatePem): string {
  return cert
    ? tempFile('kubeconfig', kubeconfigYaml({ server: kapi.url, caCertPem: kapiCa().certPem, clusterName: 'kapi', userName: 'someone', contextName: 'kapi', clientCertificate: cert }))
    : withoutCredentials();
}

/** A kubeconfig with kapi's address and CA but no credentials: kubectl must be given a token. */
function withoutCredentials(): string {
  const ca = Buffer.from(kapiCa().certPem).toString('base64');
  return tempFile(
    'kubeconfig',
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- { name: kapi, cluster: { server: "${kapi.url}", certificate-authority-data: ${ca} } }`,
      'users:',
      '- { name: nobody, user: {} }',
      'contexts:',
      '- { name: kapi, context: { cluster: kapi, user: nobody } }',
      'current-context: kapi',
      '',
    ].join('\n'),
  );
}

test.serial('kapi kubeconfig --user alice --group devs: kubectl auth whoami prints alice in devs, and alice reaches discovery', async (t) => {
  const out = join(tempDir('kapi-e2e-kc-'), 'alice.kubeconfig');
  const issued = await kapiCli(['kubeconfig', '--user', 'alice', '--group', 'devs', '--group', 'ops', '--data-dir', kapi.dataDir, '-o', out]);
  t.is(issued.code, 0, issued.stderr);
  t.is(issued.stdout, '');
  const whoami = await kapi.kubectl(['auth', 'whoami'], { kubeconfig: out });
  t.is(whoami.code, 0, describe(whoami));
  t.is(whoami.stdout, 'ATTRIBUTE   VALUE\nUsername    alice\nGroups      [devs ops system:authenticated]\n', describe(whoami));
  // RBAC's system:discovery, bound to system:authenticated
  const api = await kapi.kubectl(['get', '--raw', '/api'], { kubeconfig: out });
  t.is(JSON.parse(api.stdout).kind, 'APIVersions', describe(api));
});

test.serial('kapi kubeconfig prints to stdout by default, with the server kapi serve wrote and a certificate of the CA', async (t) => {
  const issued = await kapiCli(['kubeconfig', '--user', 'dave', '--expiration', '1h', '--data-dir', kapi.dataDir]);
  t.is(issued.code, 0, issued.stderr);
  t.regex(issued.stdout, new RegExp(`server: ${kapi.url.replace(/[.]/g, '\\.')}\n`));
  t.regex(issued.stdout, /client-certificate-data: \S+\n\s+client-key-data: \S+\n/);
  t.regex(issued.stdout, /current-context: dave@kapi\n/);
  const whoami = await kapi.kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], { kubeconfig: tempFile('kubeconfig', issued.stdout) });
  t.is(whoami.stdout, 'dave', describe(whoami));
});

test.serial('kapi kubeconfig: usage errors, and a data directory without a CA', async (t) => {
  const noUser = await kapiCli(['kubeconfig', '--data-dir', kapi.dataDir]);
  t.is(noUser.code, 2);
  t.is(noUser.stderr, 'kapi: --user is required (see kapi kubeconfig --help)\n');
  const badExpiration = await kapiCli(['kubeconfig', '--user', 'x', '--expiration', 'soon', '--data-dir', kapi.dataDir]);
  t.is(badExpiration.code, 2);
  t.is(badExpiration.stderr, 'kapi: invalid --expiration "soon": must be a duration such as 24h or 720h (see kapi kubeconfig --help)\n');
  const empty = tempDir('kapi-e2e-noca-');
  const noCa = await kapiCli(['kubeconfig', '--user', 'x', '--data-dir', empty]);
  t.is(noCa.code, 1);
  t.is(noCa.stderr, `kapi: no CA in ${join(empty, 'pki')} (ca.crt, ca.key): kapi serve --data-dir ${empty} creates it at its first start\n`);
  removeDir(empty);
});

test.serial('client certificates kapi must refuse are 401 Unauthorized: another CA, expired, not yet valid, server-only; one without a CommonName is anonymous', async (t) => {
  const ca = kapiCa();
  const refused: [string, CertificatePem][] = [
    ['another CA', await createClientCert(await createCa('stranger-ca'), { username: 'mallory', groups: ['system:masters'] }, day)],
    ['expired', await issueOddCert(ca, { commonName: 'old', notBefore: new Date(Date.now() - 3 * day), notAfter: new Date(Date.now() - day) })],
    ['not yet valid', await issueOddCert(ca, { commonName: 'early', notBefore: new Date(Date.now() + day), notAfter: new Date(Date.now() + 3 * day) })],
    ['server auth only', await createServingCert(ca, 'server', ['127.0.0.1'])],
  ];
  for (const [why, cert] of refused) {
    const res = await kapi.kubectl(['get', 'namespaces'], { kubeconfig: kubeconfigFor(cert) });
    t.is(res.code, 1, `${why}: ${describe(res)}`);
    t.regex(res.stderr, unauthorized, `${why}: ${describe(res)}`);
  }
  // kube's x509 authenticator does not handle a certificate without a CommonName: the request is anonymous's
  const noName = await kapi.kubectl(['get', '--raw', '/api'], { kubeconfig: kubeconfigFor(await issueOddCert(ca, { commonName: '' })) });
  t.is(noName.stderr, 'Error from server (Forbidden): forbidden: User "system:anonymous" cannot get path "/api"\n', describe(noName));
});

test.serial('a refused certificate does not stop a valid token on the same request (kube\'s union)', async (t) => {
  const expired = await issueOddCert(kapiCa(), { commonName: 'old', notAfter: new Date(Date.now() - day), notBefore: new Date(Date.now() - 2 * day) });
  const res = await kapi.kubectl(['--token', 'bob-token', 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], { kubeconfig: kubeconfigFor(expired) });
  t.is(res.stdout, 'bob', describe(res));
});

test.serial('--token-auth-file users: whoami shows the user, uid and groups of their line; an unknown token is 401', async (t) => {
  const kubeconfig = kubeconfigFor();
  const bob = await kapi.kubectl(['--token', 'bob-token', 'auth', 'whoami', '-o', 'json'], { kubeconfig });
  t.is(bob.code, 0, describe(bob));
  t.deepEqual(JSON.parse(bob.stdout).status.userInfo, { username: 'bob', uid: '1002', groups: ['viewers', 'auditors', 'system:authenticated'] });
  const carol = await kapi.kubectl(['--token', 'carol-token', 'auth', 'whoami'], { kubeconfig });
  t.is(carol.stdout, 'ATTRIBUTE   VALUE\nUsername    carol\nUID         1003\nGroups      [system:authenticated]\n', describe(carol));
  const unknown = await kapi.kubectl(['--token', 'dave-token', 'get', 'namespaces'], { kubeconfig });
  t.regex(unknown.stderr, unauthorized, describe(unknown));
});

test.serial('TokenReview: a ServiceAccount token is authenticated as its account; a tampered one and an unknown one are not', async (t) => {
  const token = (await kapi.kubectl(['create', 'token', 'default'])).stdout.trim();
  const review = async (spec: object) => {
    const res = await kapi.kubectl(['create', '-f', '-', '-o', 'json'], { stdin: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec }) });
    t.is(res.code, 0, describe(res));
    return JSON.parse(res.stdout).status;
  };
  const valid = await review({ token });
  t.like(valid, {
    authenticated: true,
    audiences: ['https://kubernetes.default.svc.cluster.local'],
    user: { username: 'system:serviceaccount:default:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
  });
  const [header, payload] = token.split('.');
  const forged = await review({ token: `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}` });
  t.deepEqual(forged.user, {});
  t.is(forged.authenticated, undefined);
  t.regex(forged.error, /signature/);
  const wrongAudience = await review({ token, audiences: ['https://elsewhere.example'] });
  t.is(wrongAudience.authenticated, undefined);
  t.is(wrongAudience.error, 'token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["https://elsewhere.example"]');
  t.deepEqual(await review({ token: 'nobody-knows-this' }), { user: {}, error: 'invalid bearer token' });
  const file = await review({ token: 'bob-token' });
  t.like(file, { authenticated: true, user: { username: 'bob', uid: '1002' } });
});

test.serial('TokenReview bad input is 400 as kube: no token, a token of the wrong type', async (t) => {
  const create = (body: object) => kapi.kubectl(['create', '--raw', '/apis/authentication.k8s.io/v1/tokenreviews', '-f', '-'], { stdin: JSON.stringify(body) });
  const noToken = await create({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} });
  t.is(noToken.code, 1);
  t.regex(noToken.stderr, /token is required for TokenReview in authentication/, describe(noToken));
  const wrongType = await create({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 42 } });
  t.regex(wrongType.stderr, /TokenReview in version "v1" cannot be handled as a TokenReview: json: cannot unmarshal number into Go struct field TokenReviewSpec.spec.token of type string/, describe(wrongType));
});

test.serial('anonymous requests (--anonymous-auth defaults to true) reach /healthz and /version; /api is RBAC\'s 403', async (t) => {
  t.like(await get(kapi, '/healthz'), { status: 200, body: 'ok' });
  t.is((await get(kapi, '/version')).status, 200);
  t.deepEqual(await get(kapi, '/api'), { status: 403, body: anonymousForbidden });
});

test.serial('huge credentials are a 4xx, never a 500', async (t) => {
  // over kube's 1 MiB of request header: Go's 431
  t.is((await get(kapi, '/api', { authorization: `Bearer ${'x'.repeat(1100 * 1024)}` })).status, 431);
  t.deepEqual(await get(kapi, '/api', { authorization: `Bearer ${'x'.repeat(64 * 1024)}` }), { status: 401, body: unauthorizedStatus });
  // no token after the scheme: not a bearer token (kube's), so the request is anonymous's
  t.deepEqual(await get(kapi, '/api', { authorization: 'Bearer' }), { status: 403, body: anonymousForbidden });
});

test('--anonymous-auth=false: a request without credentials is 401 on every path, /healthz included', async (t) => {
  const server = await startKapi({ args: ['--storage', 'memory', '--anonymous-auth=false'] });
  try {
    t.deepEqual(await get(server, '/healthz'), { status: 401, body: unauthorizedStatus });
    t.deepEqual(await get(server, '/version'), { status: 401, body: unauthorizedStatus });
    const admin = await server.kubectl(['get', '--raw', '/healthz']);
    t.is(admin.stdout, 'ok', describe(admin));
  } finally {
    await server.stop();
  }
});

test('a token file kube refuses stops kapi serve with a usage error naming the line', async (t) => {
  const serve = async (tokens: string) => {
    const dataDir = tempDir('kapi-e2e-badtokens-');
    const res = await kapiCli(['serve', '--port', '0', '--storage', 'memory', '--data-dir', dataDir, '--token-auth-file', tokens]);
    removeDir(dataDir);
    return res;
  };
  const short = tempFile('tokens.csv', 'good,alice,1\nbad,bob\n');
  const res = await serve(short);
  t.is(res.code, 2);
  t.is(res.stderr, `kapi: token file '${short}' must have at least 3 columns (token, user name, user uid), found 2 (line 2) (see kapi serve --help)\n`);
  const quote = tempFile('tokens.csv', 'good,al"ice,1\n');
  const res2 = await serve(quote);
  t.is(res2.code, 2);
  t.is(res2.stderr, `kapi: token file '${quote}': parse error on line 1, column 8: bare " in non-quoted field (see kapi serve --help)\n`);
});
