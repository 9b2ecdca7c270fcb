import test from 'ava';
import { expectStatus, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

/** kube-apiserver's body for a failed authentication, byte for byte. */
const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

test('a request without a token is refused with 401 Unauthorized', async (t) => {
  for (const path of ['/api', '/apis', '/api/v1/namespaces', '/api/v1/namespaces/default']) {
    const res = await server.request('GET', path, { token: null });
    t.is(res.status, 401, path);
    t.deepEqual(res.body, unauthorized, path);
  }
});

test('a request with an unknown token is refused with 401 Unauthorized', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces', { token: 'not-the-admin-token' });
  t.is(res.status, 401);
  t.deepEqual(res.body, unauthorized);
});

test('a request with non-bearer credentials is refused with 401', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces', { token: null, headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
  expectStatus(t, res, { code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
});

test('an unauthenticated write is refused and stores nothing', async (t) => {
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sneaky' } };
  const res = await server.request('POST', '/api/v1/namespaces', { body, token: null });
  expectStatus(t, res, { code: 401, reason: 'Unauthorized' });
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

test('single health checks are readable without a token', async (t) => {
  const res = await server.request('GET', '/readyz/ping', { token: null });
  t.is(res.status, 200);
  t.is(res.text, 'ok');
});

test('paths that only start like a public path still need a token', async (t) => {
  for (const path of ['/healthzx', '/versions', '/readyzz/ping']) {
    const res = await server.request('GET', path, { token: null });
    t.is(res.status, 401, path);
  }
});
