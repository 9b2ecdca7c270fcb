import test from 'ava';
import { expectStatus, useTestServer } from '../helpers/test-server.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { staticTokenAuth } from '../../index.js';

const tokens = { alice: 'alice-token', bob: 'bob-token' };

const authz = tableAuthorizer([
  { users: ['alice'], verbs: ['get', 'list'], resources: ['selfsubjectaccessreviews'], apiGroups: ['authorization.k8s.io'] },
  { users: ['alice'], verbs: ['get'], paths: ['/apis/authorization.k8s.io/v1'] },
  { groups: ['system:authenticated'], verbs: ['create'], resources: ['selfsubjectaccessreviews'], apiGroups: ['authorization.k8s.io'] },
  { users: ['alice'], verbs: ['create'], resources: ['subjectaccessreviews', 'localsubjectaccessreviews'], apiGroups: ['authorization.k8s.io'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['users'], names: ['carol'] },
  { users: ['alice', 'carol'], verbs: ['get', 'list'], resources: ['widgets'], apiGroups: ['example.com'], namespaces: ['team-a'] },
  { users: ['bob'], verbs: ['delete'], resources: ['*'], denyReason: 'bob never deletes' },
  { groups: ['readers'], verbs: ['get'], paths: ['/healthz'] },
]);

const server = useTestServer({
  auth: {
    token: tokens.alice,
    modules: [
      staticTokenAuth([
        { token: tokens.alice, user: { username: 'alice', groups: ['system:authenticated'] } },
        { token: tokens.bob, user: { username: 'bob', groups: ['system:authenticated'] } },
      ]),
      authz.module,
    ],
  },
});

const base = '/apis/authorization.k8s.io/v1';
const widgets = (namespace: string, verb = 'get') => ({ group: 'example.com', resource: 'widgets', namespace, verb });

function selfReview(resourceAttributes: object) {
  return { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: { creationTimestamp: null }, spec: { resourceAttributes } };
}

test('a SelfSubjectAccessReview answers for the requesting user', async (t) => {
  const yes = await server.request('POST', `${base}/selfsubjectaccessreviews`, { body: selfReview(widgets('team-a')) });
  t.is(yes.status, 201);
  t.deepEqual(yes.body, {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: { resourceAttributes: widgets('team-a') },
    status: { allowed: true, reason: 'granted by the test table' },
  });
  const asked = authz.asked.find((a) => a.resource === 'widgets')!;
  t.deepEqual(asked, { user: { username: 'alice', groups: ['system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '', namespace: 'team-a', apiGroup: 'example.com', apiVersion: '*', resource: 'widgets', subresource: '', name: '' });
  const no = await server.request('POST', `${base}/selfsubjectaccessreviews`, { body: selfReview(widgets('team-b')) });
  t.deepEqual(no.body.status, { allowed: false });
});

test('a denial is denied with its reason; the impersonated user is the one reviewed', async (t) => {
  const denied = await server.request('POST', `${base}/selfsubjectaccessreviews`, { token: tokens.bob, body: selfReview(widgets('team-a', 'delete')) });
  t.deepEqual(denied.body.status, { allowed: false, denied: true, reason: 'bob never deletes' });
  const asCarol = await server.request('POST', `${base}/selfsubjectaccessreviews`, { headers: { 'Impersonate-User': 'carol' }, body: selfReview(widgets('team-a', 'list')) });
  t.deepEqual(asCarol.body.status, { allowed: true, reason: 'granted by the test table' });
  t.deepEqual(authz.asked.at(-1)!.user, { username: 'carol', groups: ['system:authenticated'] });
});

test('a SubjectAccessReview answers for the user and groups of its spec, non-resource paths too', async (t) => {
  const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'dave', groups: ['readers'], nonResourceAttributes: { path: '/healthz', verb: 'get' } } };
  const res = await server.request('POST', `${base}/subjectaccessreviews`, { body });
  t.is(res.status, 201);
  t.deepEqual(res.body.status, { allowed: true, reason: 'granted by the test table' });
  t.deepEqual(authz.asked.at(-1), { user: { username: 'dave', groups: ['readers'] }, verb: 'get', isResourceRequest: false, path: '/healthz' });
  const bobCannot = await server.request('POST', `${base}/subjectaccessreviews`, { token: tokens.bob, body });
  expectStatus(t, bobCannot, {
    code: 403,
    reason: 'Forbidden',
    message: 'subjectaccessreviews.authorization.k8s.io is forbidden: User "bob" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
  });
});

test('a SubjectAccessReview without a subject or attributes is invalid, with kube texts', async (t) => {
  const res = await server.request('POST', `${base}/subjectaccessreviews`, { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: {} } });
  expectStatus(t, res, {
    code: 422,
    reason: 'Invalid',
    message:
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
  });
  t.deepEqual(res.body.details.kind, 'SubjectAccessReview');
  const both = await server.request('POST', `${base}/selfsubjectaccessreviews`, {
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: widgets('a'), nonResourceAttributes: { path: '/x', verb: 'get' } } },
  });
  expectStatus(t, both, {
    code: 422,
    reason: 'Invalid',
    message:
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
  });
  const named = await server.request('POST', `${base}/subjectaccessreviews`, {
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: { name: 'x' }, spec: { user: 'u', resourceAttributes: widgets('a') } },
  });
  t.is(named.status, 422);
  t.regex(named.body.message, /metadata: Invalid value: .*: must be empty$/);
});

test('a LocalSubjectAccessReview must name the namespace it is created in', async (t) => {
  const body = (namespace: string) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'carol', resourceAttributes: widgets(namespace) } });
  const ok = await server.request('POST', `${base}/namespaces/team-a/localsubjectaccessreviews`, { body: body('team-a') });
  t.is(ok.status, 201);
  t.is(ok.body.metadata.namespace, 'team-a');
  t.deepEqual(ok.body.status, { allowed: true, reason: 'granted by the test table' });
  const mismatch = await server.request('POST', `${base}/namespaces/team-a/localsubjectaccessreviews`, { body: body('team-b') });
  expectStatus(t, mismatch, {
    code: 422,
    reason: 'Invalid',
    message: 'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "team-b": must match metadata.namespace',
  });
  const otherMeta = await server.request('POST', `${base}/namespaces/team-a/localsubjectaccessreviews`, { body: { ...body('team-a'), metadata: { namespace: 'team-b' } } });
  expectStatus(t, otherMeta, { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' });
  const nonResource = await server.request('POST', `${base}/namespaces/team-a/localsubjectaccessreviews`, {
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'carol', nonResourceAttributes: { path: '/x', verb: 'get' } } },
  });
  t.is(nonResource.status, 422);
  t.regex(nonResource.body.message, /spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes\{Path:"\/x", Verb:"get"\}: disallowed on this kind of request/);
});

test('reviews are create-only and bad input is a 4xx', async (t) => {
  t.is((await server.request('GET', `${base}/selfsubjectaccessreviews`)).status, 405);
  t.is((await server.request('POST', `${base}/selfsubjectaccessreviews/x`, { body: selfReview(widgets('a')) })).status, 405);
  const allNamespaces = await server.request('POST', `${base}/localsubjectaccessreviews`, { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'u', resourceAttributes: widgets('a') } } });
  t.is(allNamespaces.status, 405);
  const wrongType = await server.request('POST', `${base}/selfsubjectaccessreviews`, { body: { ...selfReview(widgets('a')), spec: { resourceAttributes: { verb: 7 } } } });
  expectStatus(t, wrongType, {
    code: 400,
    reason: 'BadRequest',
    message:
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string',
  });
  const badMeta = await server.request('POST', `${base}/selfsubjectaccessreviews`, { body: { ...selfReview(widgets('a')), metadata: 5 } });
  t.is(badMeta.status, 400);
  const selectors = await server.request('POST', `${base}/selfsubjectaccessreviews`, { body: selfReview({ ...widgets('a'), fieldSelector: {} }) });
  expectStatus(t, selectors, {
    code: 422,
    reason: 'Invalid',
    message:
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
  });
});

test('discovery lists the reviews with the create verb only', async (t) => {
  const res = await server.request('GET', base);
  const byName = Object.fromEntries(res.body.resources.map((r: any) => [r.name, r]));
  t.deepEqual(byName.selfsubjectaccessreviews.verbs, ['create']);
  t.false(byName.selfsubjectaccessreviews.namespaced);
  t.true(byName.localsubjectaccessreviews.namespaced);
  t.deepEqual(byName.subjectaccessreviews.kind, 'SubjectAccessReview');
});
