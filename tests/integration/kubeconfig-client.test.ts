// The kubeconfig client webhooks are called with: what of a kubeconfig reaches the server over real HTTPS (CA, token,
// tokenFile, client certificate, tls-server-name, insecure-skip-tls-verify), and client-go's errors for bad files.
import test from 'ava';
import https from 'node:https';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createCa, createClientCert, createServingCert, type CertificatePem } from '../../plugins/auth/certificates.js';
import { KubeconfigError, readKubeconfigClient } from '../../plugins/auth/kubeconfig-client.js';

interface Seen {
  path: string;
  authorization?: string;
  clientCn?: string;
  body: unknown;
}

let ca: CertificatePem;
let otherCa: CertificatePem;
let clientCert: CertificatePem;
let dir: string;
/** A server valid for 127.0.0.1, and one valid only for the name authz.example. */
const servers: { url: string; close: () => void }[] = [];
const seen: Seen[] = [];

async function startServer(serving: CertificatePem): Promise<{ url: string; close: () => void }> {
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      seen.push({
        path: req.url ?? '',
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        ...(peer?.subject?.CN ? { clientCn: String(peer.subject.CN) } : {}),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

test.before(async () => {
  ca = await createCa('kubeconfig-client-test-ca');
  otherCa = await createCa('kubeconfig-client-other-ca');
  clientCert = await createClientCert(ca, { username: 'kapi-front', groups: [] }, 60 * 60 * 1000);
  servers.push(await startServer(await createServingCert(ca, 'ip', ['127.0.0.1'])));
  servers.push(await startServer(await createServingCert(ca, 'named', ['authz.example'])));
  dir = await mkdtemp(join(tmpdir(), 'kapi-kubeconfig-client-'));
});

test.after.always(() => {
  for (const s of servers) s.close();
});

const b64 = (text: string) => Buffer.from(text).toString('base64');

let files = 0;
/** Writes a kubeconfig with one cluster, user and current context; returns its path. */
async function kubeconfig(cluster: Record<string, unknown>, user: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const path = join(dir, `kubeconfig-${++files}`);
  await writeFile(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
      ...extra,
    }),
  );
  return path;
}

/** POSTs through a client of `path` and returns what the server saw. */
async function call(path: string, apiPath?: string): Promise<Seen> {
  const res = await readKubeconfigClient(path).post({ hello: 'world', from: path }, 5000, apiPath);
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  const got = seen.filter((s) => (s.body as { from?: string }).from === path);
  if (got.length !== 1) throw new Error('the server was not called once');
  return got[0]!;
}

test('a token and certificate-authority-data: the server URL is POSTed the JSON body with the bearer token', async (t) => {
  const path = await kubeconfig({ server: `${servers[0]!.url}/authorize`, 'certificate-authority-data': b64(ca.certPem) }, { token: 'secret-token' });
  const got = await call(path);
  t.is(got.path, '/authorize?timeout=5s');
  t.is(got.authorization, 'Bearer secret-token');
  t.deepEqual(got.body, { hello: 'world', from: path });
  t.is(got.clientCn, undefined);
});

test('client-certificate and client-key files, relative to the kubeconfig, and a certificate-authority file', async (t) => {
  await writeFile(join(dir, 'client.crt'), clientCert.certPem);
  await writeFile(join(dir, 'client.key'), clientCert.keyPem);
  await writeFile(join(dir, 'ca.crt'), ca.certPem);
  const path = await kubeconfig({ server: servers[0]!.url, 'certificate-authority': 'ca.crt' }, { 'client-certificate': 'client.crt', 'client-key': 'client.key' });
  const got = await call(path, '/apis/authorization.k8s.io/v1/subjectaccessreviews');
  t.is(got.clientCn, 'kapi-front');
  t.is(got.authorization, undefined);
  t.is(got.path, '/apis/authorization.k8s.io/v1/subjectaccessreviews?timeout=5s');
});

test('client-certificate-data and client-key-data are presented', async (t) => {
  const path = await kubeconfig(
    { server: servers[0]!.url, 'certificate-authority-data': b64(ca.certPem) },
    { 'client-certificate-data': b64(clientCert.certPem), 'client-key-data': b64(clientCert.keyPem) },
  );
  t.is((await call(path)).clientCn, 'kapi-front');
});

test('tokenFile: the token is read from the file', async (t) => {
  await writeFile(join(dir, 'token'), 'file-token\n');
  const path = await kubeconfig({ server: servers[0]!.url, 'certificate-authority-data': b64(ca.certPem) }, { tokenFile: join(dir, 'token') });
  t.is((await call(path)).authorization, 'Bearer file-token');
});

test('tls-server-name: the certificate is checked against that name, not the URL host', async (t) => {
  const named = servers[1]!.url;
  const without = await kubeconfig({ server: named, 'certificate-authority-data': b64(ca.certPem) }, { token: 't' });
  const err = await t.throwsAsync(readKubeconfigClient(without).post({}, 5000));
  t.regex(err.message, /^Post "https:\/\/127\.0\.0\.1:\d+\?timeout=5s": tls: failed to verify certificate: x509: cannot validate certificate for 127\.0\.0\.1 because it doesn't contain any IP SANs$/);
  const withName = await kubeconfig({ server: named, 'certificate-authority-data': b64(ca.certPem), 'tls-server-name': 'authz.example' }, { token: 't' });
  t.is((await call(withName)).authorization, 'Bearer t');
});

test('insecure-skip-tls-verify: a server certificate of an unknown CA is accepted; without it refused', async (t) => {
  const unknown = await kubeconfig({ server: servers[0]!.url, 'certificate-authority-data': b64(otherCa.certPem) }, { token: 't' });
  const err = await t.throwsAsync(readKubeconfigClient(unknown).post({}, 5000));
  t.regex(err.message, /x509: certificate signed by unknown authority$/);
  const insecure = await kubeconfig({ server: servers[0]!.url, 'insecure-skip-tls-verify': true }, { token: 't' });
  t.is((await call(insecure)).authorization, 'Bearer t');
});

test('bad kubeconfigs are refused with client-go\'s messages', async (t) => {
  const refused = async (path: string, message: string | RegExp) => {
    const err = t.throws(() => readKubeconfigClient(path), { instanceOf: KubeconfigError });
    if (typeof message === 'string') t.is(err?.message, message);
    else t.regex(err?.message ?? '', message);
  };
  const server = servers[0]!.url;
  await refused(join(dir, 'missing'), `open ${join(dir, 'missing')}: no such file or directory`);
  const empty = join(dir, 'empty');
  await writeFile(empty, '');
  await refused(empty, 'invalid configuration: no configuration has been provided');
  await refused(await kubeconfig({ server }, { token: 't' }, { 'current-context': '' }), 'invalid configuration: no context chosen');
  await refused(await kubeconfig({ server }, { token: 't' }, { 'current-context': 'other' }), 'invalid configuration: context was not found for specified context: other');
  await refused(await kubeconfig({ 'insecure-skip-tls-verify': true }, { token: 't' }), 'invalid configuration: no server found for cluster "c"');
  await refused(
    await kubeconfig({ server }, { 'client-certificate-data': b64(clientCert.certPem) }),
    'invalid configuration: client-key-data or client-key must be specified for u to use the clientCert authentication method.',
  );
  await refused(
    await kubeconfig({ server, 'certificate-authority': 'nope.crt' }, { token: 't' }),
    `invalid configuration: unable to read certificate-authority nope.crt for c due to open ${join(dir, 'nope.crt')}: no such file or directory`,
  );
  await refused(
    await kubeconfig({ server, 'insecure-skip-tls-verify': true, 'certificate-authority-data': b64(ca.certPem) }, { token: 't' }),
    'invalid configuration: specifying a root certificates file with the insecure flag is not allowed',
  );
  await refused(await kubeconfig({ server }, { exec: { command: 'x' } }), /^invalid configuration: exec of user "u" is not supported by kapi/);
  await refused(await kubeconfig({ server: 'ftp://x' }, { token: 't' }), 'invalid configuration: server "ftp://x" of cluster "c" must be an http:// or https:// URL');
  const garbage = join(dir, 'garbage');
  await writeFile(garbage, 'clusters: [unclosed');
  await refused(garbage, new RegExp(`^error loading config file "${garbage}": `));
});
