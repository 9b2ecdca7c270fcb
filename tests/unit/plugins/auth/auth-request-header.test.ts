import test from 'ava';
import { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { createCa, createClientCert } from '../../../../plugins/auth/certificates.js';
import { RequestHeaderAuthenticator, defaultRequestHeaderNames } from '../../../../plugins/auth/request-header-authenticator.js';

const day = 24 * 60 * 60 * 1000;
const ca = await createCa('front-proxy-ca');
const proxy = await createClientCert(ca, { username: 'front-proxy-client', groups: [] }, day);
/** A TLS socket whose client sent the front proxy's certificate. */
const proxySocket = { getPeerCertificate: () => ({ raw: new X509Certificate(proxy.certPem).raw }), getPeerX509Certificate: () => new X509Certificate(proxy.certPem) } as unknown as TLSSocket;
const authenticator = (o: Partial<typeof defaultRequestHeaderNames> = {}) =>
  new RequestHeaderAuthenticator(() => [new X509Certificate(ca.certPem)], { allowedNames: [], ...defaultRequestHeaderNames, ...o });

test('once the user is authenticated its headers are gone from the request; the others stay', async (t) => {
  const headers: IncomingHttpHeaders = { 'x-remote-user': 'alice', 'x-remote-group': 'devs', 'x-remote-extra-scopes': 'read', accept: 'application/json' };
  const headersDistinct = { 'x-remote-user': ['alice'], 'x-remote-group': ['devs', 'ops'], 'x-remote-extra-scopes': ['read'], accept: ['application/json'] };
  const user = await authenticator().authenticate({ headers, headersDistinct, socket: proxySocket });
  t.deepEqual(user, { username: 'alice', groups: ['devs', 'ops'], extra: { scopes: ['read'] } });
  t.deepEqual(headers, { accept: 'application/json' });
  t.deepEqual(headersDistinct, { accept: ['application/json'] });
});

test('the first non-empty username header names the user; flag header names in any case; a malformed percent-encoding is kept', async (t) => {
  const a = authenticator({ usernameHeaders: ['X-Proxy-User', 'X-Remote-User'], groupHeaders: ['X-Proxy-Group'], extraHeaderPrefixes: ['X-Proxy-Extra-'] });
  const headers = { 'x-proxy-user': '', 'x-remote-user': 'bob', 'x-proxy-group': 'g', 'x-proxy-extra-key%zz': 'v' };
  t.deepEqual(await a.authenticate({ headers, socket: proxySocket }), { username: 'bob', groups: ['g'], extra: { 'key%zz': ['v'] } });
});

test('--requestheader-uid-headers: the first header whose first value is not empty is the UID, and it is removed', async (t) => {
  const a = authenticator({ uidHeaders: ['X-Proxy-Uid', 'X-Remote-Uid'] });
  // Go's Header.Get: a header whose first value is empty does not count, even with a second value
  const headersDistinct = { 'x-remote-user': ['alice'], 'x-proxy-uid': ['', 'ignored'], 'x-remote-uid': ['u-1', 'u-2'] };
  const headers: IncomingHttpHeaders = { 'x-remote-user': 'alice', 'x-proxy-uid': ', ignored', 'x-remote-uid': 'u-1, u-2' };
  t.deepEqual(await a.authenticate({ headers, headersDistinct, socket: proxySocket }), { username: 'alice', uid: 'u-1', groups: [] });
  t.deepEqual(headersDistinct, {});
  t.deepEqual(headers, {});
});

test('by default no header is a UID: X-Remote-Uid is ignored and left on the request', async (t) => {
  const headers = { 'x-remote-user': 'alice', 'x-remote-uid': 'u-1' };
  t.deepEqual(await authenticator().authenticate({ headers, socket: proxySocket }), { username: 'alice', groups: [] });
  t.deepEqual(headers, { 'x-remote-uid': 'u-1' });
});

test('without a client certificate the headers are left alone and nobody is authenticated', async (t) => {
  const headers = { 'x-remote-user': 'alice' };
  t.is(await authenticator().authenticate({ headers }), null);
  t.deepEqual(headers, { 'x-remote-user': 'alice' });
});
