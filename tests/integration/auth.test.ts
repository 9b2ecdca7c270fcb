import test from 'ava';
import { expectStatus, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

/** kube-apiserver's body for a failed authentication, byte for byte. */
const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

/** kube's 403 for system:anonymous on a path RBAC does not grant it. */
function anonymousForbidden(path: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `forbidden: User "system:anonymous" cannot get path "${path}"`, reason: 'Forbidden', details: {}, code: 403 };
}

test('a request without a token is anonymous, and RBAC grants it no API (403 with kube\'s text)', async (t) => {
  for (const path of ['/api', '/apis', '/openapi/v2']) {
    const res = await server.request('GET', path, { token: null });
    t.deepEqual(res.body, anonymousForbidden(path), path);
  }
  const list = await server.request('GET', '/api/v1/namespaces', { token: null });
  expectStatus(t, list, {
    code: 403,
    reason: 'Forbidden',
    message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
  });
  t.deepEqual(list.body.details, { kind: 'namespaces' });
  const get = await server.request('GET', '/api/v1/namespaces/default', { token: null });
  expectStatus(t, get, {
    code: 403,
    reason: 'Forbidden',
    message: 'namespaces "default" is forbidden: User "system:anonymous" cannot get resource "namespaces" in API group "" in the namespace "default"',
  });
});

test('a request with an unknown token is refused with 401 Unauthorized', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces', { token: 'not-the-admin-token' });
  t.is(res.status, 401);
  t.deepEqual(res.body, unauthorized);
});

test('credentials no authenticator handles are anonymous, as kube', async (t) => {
  const res = await server.request('GET', '/api', { token: null, headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
  t.deepEqual(res.body, anonymousForbidden('/api'));
});

test('an unauthenticated write is refused and stores nothing', async (t) => {
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sneaky' } };
  const res = await server.request('POST', '/api/v1/namespaces', { body, token: null });
  expectStatus(t, res, { code: 403, reason: 'Forbidden' });
  const get = await server.request('GET', '/api/v1/namespaces/sneaky');
  t.is(get.status, 404);
});

test('the admin token is accepted', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default');
  t.is(res.status, 200);
  t.is(res.body.kind, 'Namespace');
  t.is(res.body.metadata.name, 'default');
});

test('health endpoints and /version are readable without a token', async (t) => {
  for (const path of ['/healthz', '/livez', '/readyz']) {
    const res = await server.request('GET', path, { token: null });
    t.is(res.status, 200, path);
    t.is(res.text, 'ok', path);
  }
  const version = await server.request('GET', '/version', { token: null });
  t.is(version.status, 200);
  t.is(version.body.major, '1');
  t.is(version.body.minor, '32');
});

test('single health checks and paths that only start like a public path are not granted to anonymous', async (t) => {
  for (const path of ['/readyz/ping', '/healthzx', '/versions', '/readyzz/ping']) {
    const res = await server.request('GET', path, { token: null });
    t.deepEqual(res.body, anonymousForbidden(path), path);
  }
});
