// kube's authorization modes besides RBAC: AlwaysAllow lets anonymous requests do everything, AlwaysDeny refuses all
// with its reason; a server without authentication lets everyone do everything.
import test from 'ava';
import { alwaysAllow, alwaysDeny, createApiServer, defaultModules, rbacAuthorization } from '../../index.js';
import { expectStatus, startTestServer } from '../helpers/test-server.js';

test('AlwaysAllow: an anonymous request may do everything, as kube', async (t) => {
  const server = await startTestServer({ storage: 'memory', authorizers: [alwaysAllow()] });
  try {
    t.is((await server.request('GET', '/api/v1/namespaces', { token: null })).status, 200);
    const created = await server.request('POST', '/api/v1/namespaces', { token: null, body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'by-anonymous' } } });
    t.is(created.status, 201);
    t.is((await server.request('GET', '/api/v1/namespaces', { token: 'unknown' })).status, 401);
  } finally {
    await server.close();
  }
});

test('AlwaysDeny: every request is refused with kube\'s reason, the admin\'s too', async (t) => {
  const server = await startTestServer({ storage: 'memory', authorizers: [alwaysDeny()] });
  try {
    expectStatus(t, await server.request('GET', '/api'), { code: 403, reason: 'Forbidden', message: 'forbidden: User "kapi-admin" cannot get path "/api": Everything is forbidden.' });
    expectStatus(t, await server.request('GET', '/api/v1/namespaces/default/configmaps/x'), {
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "x" is forbidden: User "kapi-admin" cannot get resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    });
  } finally {
    await server.close();
  }
});

test('RBAC then AlwaysDeny: RBAC allows what it grants, the rest has AlwaysDeny\'s reason', async (t) => {
  const server = await startTestServer({ storage: 'memory', authorizers: [rbacAuthorization(), alwaysDeny()] });
  try {
    t.is((await server.request('GET', '/api/v1/namespaces')).status, 200);
    expectStatus(t, await server.request('GET', '/api', { token: null }), { code: 403, reason: 'Forbidden', message: 'forbidden: User "system:anonymous" cannot get path "/api": Everything is forbidden.' });
  } finally {
    await server.close();
  }
});

test('a server without authentication modules lets every request through, as before', async (t) => {
  const server = createApiServer({ modules: defaultModules({ storage: 'memory', authModules: [] }) });
  const { url } = await server.listen({ port: 0, host: '127.0.0.1' });
  try {
    const res = await fetch(`${url}/api/v1/namespaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'open' } }) });
    t.is(res.status, 201);
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'anything' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] };
    const created = await fetch(`${url}/apis/rbac.authorization.k8s.io/v1/clusterroles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(role) });
    t.is(created.status, 201); // no authorization: nothing to escalate beyond
  } finally {
    await server.close();
  }
});
