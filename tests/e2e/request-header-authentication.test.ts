// Front-proxy authentication through `kapi serve --requestheader-*`: X-Remote-* headers are the user only on a request
// whose client certificate the request-header CA signs, with an allowed CommonName (X-Remote-Uid too, as
// --requestheader-uid-headers names it); otherwise they are ignored.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { createCa, createClientCert, type CertificatePem } from '../../plugins/auth/certificates.js';
import { tempFile, useKapi } from '../helpers/kapi-process.js';

const day = 24 * 60 * 60 * 1000;
const frontProxyCa = await createCa('front-proxy-ca');
const kapi = useKapi({
  args: ['--storage', 'memory', '--requestheader-client-ca-file', tempFile('front-proxy-ca.crt', frontProxyCa.certPem), '--requestheader-allowed-names', 'front-proxy-client,aggregator', '--requestheader-uid-headers', 'X-Remote-Uid'],
});

const proxyHeaders = {
  'X-Remote-User': 'alice',
  'X-Remote-Group': ['devs', 'ops'],
  'X-Remote-Extra-Scopes': ['read', 'write'],
  'X-Remote-Extra-Acme.com%2Fproject': 'p1',
};

const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

interface Credentials {
  cert?: CertificatePem;
  token?: string;
}

/** POSTs a SelfSubjectReview (what `kubectl auth whoami` sends) over HTTPS with `credentials` and `headers`. */
function whoami(credentials: Credentials, headers: Record<string, string | string[]>): Promise<{ status: number; body: any }> {
  const ca = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'));
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  return new Promise((resolve, reject) => {
    const req = request(
      `${kapi.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      {
        method: 'POST',
        ca,
        ...(credentials.cert ? { cert: credentials.cert.certPem, key: credentials.cert.keyPem } : {}),
        headers: { 'Content-Type': 'application/json', ...(credentials.token ? { Authorization: `Bearer ${credentials.token}` } : {}), ...headers },
      },
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

function kapiCa(): CertificatePem {
  const pki = join(kapi.dataDir, 'pki');
  return { certPem: readFileSync(join(pki, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'ca.key'), 'utf8') };
}

test('a front proxy\'s certificate makes the headers the user: every group value, extra keys lower-cased and percent-decoded', async (t) => {
  const proxy = await createClientCert(frontProxyCa, { username: 'front-proxy-client', groups: [] }, day);
  const res = await whoami({ cert: proxy }, proxyHeaders);
  t.is(res.status, 201, JSON.stringify(res.body));
  t.deepEqual(res.body.status.userInfo, {
    username: 'alice',
    groups: ['devs', 'ops', 'system:authenticated'],
    extra: { scopes: ['read', 'write'], 'acme.com/project': ['p1'] },
  });
});

test('--requestheader-uid-headers X-Remote-Uid: its first value is the user\'s UID', async (t) => {
  const proxy = await createClientCert(frontProxyCa, { username: 'front-proxy-client', groups: [] }, day);
  const res = await whoami({ cert: proxy }, { 'X-Remote-User': 'alice', 'X-Remote-Uid': ['4f0c-uid', 'second'] });
  t.is(res.status, 201, JSON.stringify(res.body));
  t.deepEqual(res.body.status.userInfo, { username: 'alice', uid: '4f0c-uid', groups: ['system:authenticated'] });
});

test('the headers are ignored on a request with a client certificate of the client CA, or a bearer token', async (t) => {
  const bob = await createClientCert(kapiCa(), { username: 'bob', groups: ['testers'] }, day);
  const byCert = await whoami({ cert: bob }, proxyHeaders);
  t.is(byCert.status, 201, JSON.stringify(byCert.body));
  t.deepEqual(byCert.body.status.userInfo, { username: 'bob', groups: ['testers', 'system:authenticated'] });
  const token = readFileSync(join(kapi.dataDir, 'admin-token'), 'utf8').trim();
  const byToken = await whoami({ token }, proxyHeaders);
  t.is(byToken.status, 201, JSON.stringify(byToken.body));
  t.deepEqual(byToken.body.status.userInfo, { username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
});

test('a certificate of the request-header CA with a CommonName not allowed is 401, headers or not', async (t) => {
  const mallory = await createClientCert(frontProxyCa, { username: 'mallory', groups: [] }, day);
  const res = await whoami({ cert: mallory }, proxyHeaders);
  t.is(res.status, 401);
  t.deepEqual(res.body, unauthorized);
});

test('an allowed front proxy that names no user authenticates no one: 401', async (t) => {
  const proxy = await createClientCert(frontProxyCa, { username: 'aggregator', groups: [] }, day);
  const res = await whoami({ cert: proxy }, { 'X-Remote-Group': 'devs' });
  t.is(res.status, 401);
  t.deepEqual(res.body, unauthorized);
});
