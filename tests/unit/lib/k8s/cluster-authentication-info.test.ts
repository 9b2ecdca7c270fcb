import test from 'ava';
import { X509Certificate } from 'node:crypto';
import {
  clusterAuthenticationData,
  ClusterAuthenticationInfoError,
  combineClusterAuthenticationInfo,
  readClusterAuthenticationInfo,
  type ClusterAuthenticationInfo,
} from '../../../../lib/k8s/cluster-authentication-info.js';
import { createCa } from '../../../../plugins/auth/certificates.js';
import { issueOddCert } from '../../../helpers/client-certs.js';

const day = 24 * 60 * 60 * 1000;
const clientCa = new X509Certificate((await createCa('client-ca')).certPem);
const proxyCaPem = await createCa('front-proxy-ca');
const proxyCa = new X509Certificate(proxyCaPem.certPem);
const otherProxyCa = new X509Certificate((await createCa('other-front-proxy-ca')).certPem);

function info(o: { clientCa?: X509Certificate[]; ca?: X509Certificate[]; allowedNames?: string[]; usernameHeaders?: string[] } = {}): ClusterAuthenticationInfo {
  return {
    clientCa: o.clientCa ?? [],
    requestHeader: {
      ca: o.ca ?? [],
      allowedNames: o.allowedNames ?? [],
      usernameHeaders: o.usernameHeaders ?? ['X-Remote-User'],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
    },
  };
}

/** A PEM block as Go's pem.Encode writes it. */
function pem(cert: X509Certificate): string {
  const lines = cert.raw.toString('base64').match(/.{1,64}/g)!;
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

test('the request-header keys are written only with a request-header CA; lists as JSON arrays, [] when empty', (t) => {
  t.deepEqual(clusterAuthenticationData(info({ clientCa: [clientCa] })), { 'client-ca-file': pem(clientCa) });
  t.deepEqual(clusterAuthenticationData(info({ clientCa: [clientCa], ca: [proxyCa] })), {
    'client-ca-file': pem(clientCa),
    'requestheader-client-ca-file': pem(proxyCa),
    'requestheader-allowed-names': '[]',
    'requestheader-username-headers': '["X-Remote-User"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  });
  t.deepEqual(clusterAuthenticationData(info()), {});
});

test('the data reads back as written', (t) => {
  const written = info({ clientCa: [clientCa], ca: [proxyCa, otherProxyCa], allowedNames: ['front-proxy-client', 'a<b'] });
  const data = clusterAuthenticationData(written);
  t.is(data['requestheader-allowed-names'], '["front-proxy-client","a\\u003cb"]'); // Go's json escapes <, > and &
  const read = readClusterAuthenticationInfo(data);
  t.deepEqual(read.requestHeader.allowedNames, ['front-proxy-client', 'a<b']);
  t.deepEqual(
    read.requestHeader.ca.map((c) => c.fingerprint256),
    [proxyCa, otherProxyCa].map((c) => c.fingerprint256),
  );
  t.deepEqual(clusterAuthenticationData(read), data);
});

test('what is found first stays first; new names and certificates are added once', (t) => {
  const existing = info({ clientCa: [clientCa], ca: [proxyCa], allowedNames: ['front-proxy-client'], usernameHeaders: ['X-User'] });
  const required = info({ clientCa: [clientCa], ca: [otherProxyCa, proxyCa], allowedNames: ['aggregator', 'front-proxy-client'] });
  const combined = combineClusterAuthenticationInfo(existing, required, new Date());
  t.deepEqual(combined.clientCa.map((c) => c.fingerprint256), [clientCa.fingerprint256]);
  t.deepEqual(combined.requestHeader.ca.map((c) => c.fingerprint256), [proxyCa.fingerprint256, otherProxyCa.fingerprint256]);
  t.deepEqual(combined.requestHeader.allowedNames, ['front-proxy-client', 'aggregator']);
  t.deepEqual(combined.requestHeader.usernameHeaders, ['X-User', 'X-Remote-User']);
});

test('certificates expired for more than five minutes are dropped', async (t) => {
  const now = new Date();
  const expired = new X509Certificate(
    (await issueOddCert(proxyCaPem, { commonName: 'old-ca', ca: true, notBefore: new Date(now.getTime() - 2 * day), notAfter: new Date(now.getTime() - 6 * 60 * 1000) })).certPem,
  );
  const justExpired = new X509Certificate(
    (await issueOddCert(proxyCaPem, { commonName: 'recent-ca', ca: true, notBefore: new Date(now.getTime() - 2 * day), notAfter: new Date(now.getTime() - 60 * 1000) })).certPem,
  );
  const combined = combineClusterAuthenticationInfo(info({ ca: [expired, justExpired] }), info({ ca: [proxyCa] }), now);
  t.deepEqual(combined.requestHeader.ca.map((c) => c.fingerprint256), [justExpired.fingerprint256, proxyCa.fingerprint256]);
});

test('data that does not parse is an error naming its key', (t) => {
  t.throws(() => readClusterAuthenticationInfo({ 'requestheader-username-headers': 'X-Remote-User' }), {
    instanceOf: ClusterAuthenticationInfoError,
    message: /^requestheader-username-headers: /,
  });
  t.throws(() => readClusterAuthenticationInfo({ 'requestheader-group-headers': '[1]' }), { message: 'requestheader-group-headers: not a JSON array of strings' });
  t.throws(() => readClusterAuthenticationInfo({ 'client-ca-file': 'not a certificate' }), {
    message: 'client-ca-file: data does not contain any valid RSA or ECDSA certificates',
  });
  t.deepEqual(readClusterAuthenticationInfo({ 'requestheader-allowed-names': 'null' }).requestHeader.allowedNames, []);
});
