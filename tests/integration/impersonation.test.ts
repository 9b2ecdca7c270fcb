import test from 'ava';
import { expectStatus, useTestServer } from '../helpers/test-server.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { staticTokenAuth } from '../../index.js';

const tokens = { alice: 'alice-token', carol: 'carol-token' };

/** alice may impersonate bob, the group `viewers`, one ServiceAccount, one uid and `scopes` extras; bob and viewers may read namespaces. */
const authz = tableAuthorizer([
  { users: ['alice'], verbs: ['impersonate'], resources: ['users'], apiGroups: [''], names: ['bob', 'system:anonymous', '<b>&'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['groups'], apiGroups: [''], names: ['viewers', 'system:authenticated'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['serviceaccounts'], apiGroups: [''], namespaces: ['ns1'], names: ['robot'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['uids'], apiGroups: ['authentication.k8s.io'], names: ['uid-1'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['userextras/scopes'], apiGroups: ['authentication.k8s.io'], names: ['view'] },
  { users: ['carol'], verbs: ['impersonate'], resources: ['*'], denyReason: 'carol is on leave' },
  { users: ['bob', 'system:serviceaccount:ns1:robot', 'system:anonymous'], groups: ['viewers'], verbs: ['get'], resources: ['namespaces'] },
]);

const server = useTestServer({
  auth: {
    token: tokens.alice,
    modules: [
      staticTokenAuth([
        { token: tokens.alice, user: { username: 'alice', groups: ['system:authenticated'] } },
        { token: tokens.carol, user: { username: 'carol', groups: ['system:authenticated'] } },
      ]),
      authz.module,
    ],
  },
});

/** The user the last request to GET the default namespace was authorized as. */
function lastReader() {
  return [...authz.asked].reverse().find((a) => a.verb === 'get' && a.resource === 'namespaces')!.user;
}

test('an allowed Impersonate-User acts as that user, with system:authenticated added', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob' } });
  t.is(res.status, 200);
  t.deepEqual(lastReader(), { username: 'bob', groups: ['system:authenticated'] });
});

test('the impersonated user is the one authorized: a refusal names bob, not alice', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { 'Impersonate-User': 'bob' } });
  expectStatus(t, res, {
    code: 403,
    reason: 'Forbidden',
    message: 'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
  });
});

test('impersonating a user one may not is 403 with kube text', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'mallory' } });
  expectStatus(t, res, {
    code: 403,
    reason: 'Forbidden',
    message: 'users "mallory" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
  });
  t.deepEqual(res.body.details, { name: 'mallory', kind: 'users' });
});

test('a refusal with a reason ends with it', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default', { token: tokens.carol, headers: { 'Impersonate-User': 'bob' } });
  expectStatus(t, res, {
    code: 403,
    reason: 'Forbidden',
    message: 'users "bob" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope: carol is on leave',
  });
});

test('each group is authorized; given groups replace system:authenticated only when they name it', async (t) => {
  const refused = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'admins' } });
  expectStatus(t, refused, {
    code: 403,
    reason: 'Forbidden',
    message: 'groups "admins" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
  });
  const res = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'someone', 'Impersonate-Group': 'viewers' } });
  t.is(res.status, 403, 'alice may not impersonate "someone"');
  const ok = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'viewers' } });
  t.is(ok.status, 200);
  t.deepEqual(lastReader(), { username: 'bob', groups: ['viewers', 'system:authenticated'] });
  await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:authenticated' } });
  t.deepEqual(lastReader(), { username: 'bob', groups: ['system:authenticated'] });
});

test('repeated Impersonate-Group headers are separate groups', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default', {
    headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': ['viewers', 'system:authenticated'] },
  });
  t.is(res.status, 200);
  t.deepEqual(lastReader(), { username: 'bob', groups: ['viewers', 'system:authenticated'] });
});

test('a ServiceAccount user name is authorized on serviceaccounts in its namespace and gets its groups', async (t) => {
  const ok = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'system:serviceaccount:ns1:robot' } });
  t.is(ok.status, 200);
  t.deepEqual(lastReader(), {
    username: 'system:serviceaccount:ns1:robot',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
  });
  const refused = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'system:serviceaccount:ns2:robot' } });
  expectStatus(t, refused, {
    code: 403,
    reason: 'Forbidden',
    message: 'serviceaccounts "robot" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns2"',
  });
});

test('uid and extras are authorized in authentication.k8s.io; extra keys are percent-decoded', async (t) => {
  const ok = await server.request('GET', '/api/v1/namespaces/default', {
    headers: { 'Impersonate-User': 'bob', 'Impersonate-Uid': 'uid-1', 'Impersonate-Extra-Scopes': 'view' },
  });
  t.is(ok.status, 200);
  t.deepEqual(lastReader(), { username: 'bob', uid: 'uid-1', groups: ['system:authenticated'], extra: { scopes: ['view'] } });
  const uid = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Uid': 'uid-2' } });
  expectStatus(t, uid, {
    code: 403,
    reason: 'Forbidden',
    message: 'uids.authentication.k8s.io "uid-2" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
  });
  const extra = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Extra-Example.com%2fteam': 'red' } });
  expectStatus(t, extra, {
    code: 403,
    reason: 'Forbidden',
    message:
      'userextras.authentication.k8s.io "red" is forbidden: User "alice" cannot impersonate resource "userextras/example.com/team" in API group "authentication.k8s.io" at the cluster scope',
  });
});

test('impersonating system:anonymous gives system:unauthenticated', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'system:anonymous' } });
  t.is(res.status, 200);
  t.deepEqual(lastReader(), { username: 'system:anonymous', groups: ['system:unauthenticated'] });
});

test('groups, uid or extras without a user are a 400 naming what was asked', async (t) => {
  const groups = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-Group': 'viewers' } });
  expectStatus(t, groups, { code: 400, reason: 'BadRequest', message: 'requested [{Group  viewers    }] without impersonating a user' });
  const uid = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-Uid': 'uid-1' } });
  expectStatus(t, uid, { code: 400, reason: 'BadRequest', message: 'requested [{UID  uid-1  authentication.k8s.io/v1  }] without impersonating a user' });
  const extra = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': '', 'Impersonate-Extra-Scopes': 'view' } });
  expectStatus(t, extra, { code: 400, reason: 'BadRequest', message: 'requested [{UserExtra  view  authentication.k8s.io/v1  scopes}] without impersonating a user' });
});

test('a thousand groups are a 4xx, never a 500', async (t) => {
  const thousand = Array.from({ length: 1000 }, (_, i) => `group-${i}`);
  const res = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': thousand } });
  t.true(res.status >= 400 && res.status < 500, String(res.status));
  // A few hundred fit in a request header: the first one alice may not impersonate is the answer.
  const some = Array.from({ length: 300 }, (_, i) => `g${i}`);
  const refused = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': some } });
  expectStatus(t, refused, { code: 403, reason: 'Forbidden', message: 'groups "g0" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope' });
});

test('a user name with markup is escaped in the message, as kube does', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { 'Impersonate-User': '<b>&' } });
  expectStatus(t, res, {
    code: 403,
    reason: 'Forbidden',
    message: 'configmaps is forbidden: User "&lt;b&gt;&amp;" cannot list resource "configmaps" in API group "" in the namespace "default"',
  });
});
