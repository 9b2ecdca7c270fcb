// RBAC over HTTP: kube's 403 reasons for a binding to a missing role, validation of the RBAC kinds, escalation of an
// aggregationRule, SelfSubjectRulesReview's answer, and the bootstrap policy reconciled (autoupdate "false" respected).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createNamespace, expectStatus, startTestServer, suffix, useTestServer } from '../helpers/test-server.js';

const aliceToken = `alice-${suffix()}`;
const alice = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const server = useTestServer({ tokens: [{ token: aliceToken, user: alice }] });

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
const userSubject = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });

async function create(path: string, body: unknown, token?: string) {
  return server.request('POST', path, { body, ...(token ? { token } : {}) });
}

test('a binding to a missing role is kube\'s RBAC reason after the 403 message', async (t) => {
  const name = `gone-${suffix()}`;
  const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name }, roleRef: ref('ClusterRole', name), subjects: [userSubject('alice')] };
  t.is((await create(`${rbac}/clusterrolebindings`, binding)).status, 201);
  const res = await server.waitFor(async () => {
    const r = await server.request('GET', '/apis/example.com/v1/widgets', { token: aliceToken });
    return r.body?.message?.includes(name) ? r : undefined;
  });
  expectStatus(t, res, {
    code: 403,
    reason: 'Forbidden',
    message: `widgets.example.com is forbidden: User "alice" cannot list resource "widgets" in API group "example.com" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "${name}" not found`,
  });
  t.deepEqual(res.body.details, { group: 'example.com', kind: 'widgets' });
  await server.request('DELETE', `${rbac}/clusterrolebindings/${name}`);
});

test('RBAC kinds are validated with kube\'s texts; roleRef cannot change', async (t) => {
  const ns = await createNamespace(server, 'rbac-invalid');
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'bad' }, rules: [{ verbs: [], nonResourceURLs: ['/x'] }, { verbs: ['get'] }] };
  expectStatus(t, await create(`${rbac}/namespaces/${ns}/roles`, role), {
    code: 422,
    reason: 'Invalid',
    message:
      'Role.rbac.authorization.k8s.io "bad" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs, rules[1].apiGroups: Required value: resource rules must supply at least one api group, rules[1].resources: Required value: resource rules must supply at least one resource]',
  });
  const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b' }, roleRef: { kind: 'Pod', name: 'x' }, subjects: [{ kind: 'Robot', name: 'r' }] };
  expectStatus(t, await create(`${rbac}/namespaces/${ns}/rolebindings`, binding), {
    code: 422,
    reason: 'Invalid',
    message: 'RoleBinding.rbac.authorization.k8s.io "b" is invalid: [roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole", subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
  });
  const good = { ...binding, roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'User', name: 'u' }] };
  const created = await create(`${rbac}/namespaces/${ns}/rolebindings`, good);
  t.is(created.status, 201);
  t.deepEqual(created.body.roleRef, ref('Role', 'x')); // kube's defaults
  t.deepEqual(created.body.subjects, [userSubject('u')]);
  const changed = await server.request('PUT', `${rbac}/namespaces/${ns}/rolebindings/b`, { body: { ...created.body, roleRef: ref('Role', 'y') } });
  expectStatus(t, changed, { code: 422, reason: 'Invalid', message: 'RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"y"}: cannot change roleRef' });
});

test('an aggregationRule needs full authority; SelfSubjectRulesReview lists what the user holds', async (t) => {
  const ns = await createNamespace(server, 'rbac-agg');
  const maker = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `maker-${ns}` }, rules: [{ verbs: ['create'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] }] };
  t.is((await create(`${rbac}/clusterroles`, maker)).status, 201);
  const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `maker-${ns}` }, roleRef: ref('ClusterRole', `maker-${ns}`), subjects: [userSubject('alice')] };
  t.is((await create(`${rbac}/clusterrolebindings`, binding)).status, 201);
  const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: ns } };
  const rules = await server.waitFor(async () => {
    const r = await create('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', review, aliceToken);
    return r.body?.status?.resourceRules?.some((x: { resources?: string[] }) => x.resources?.includes('clusterroles')) ? r : undefined;
  });
  t.is(rules.status, 201);
  t.like(rules.body, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', status: { incomplete: false } });
  const publicInfo = { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] };
  t.true(rules.body.status.nonResourceRules.some((r: unknown) => JSON.stringify(r) === JSON.stringify(publicInfo)), JSON.stringify(rules.body.status));
  const aggregated = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `agg-${ns}` }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } };
  expectStatus(t, await create(`${rbac}/clusterroles`, aggregated, aliceToken), {
    code: 403,
    reason: 'Forbidden',
    message: `clusterroles.rbac.authorization.k8s.io "agg-${ns}" is forbidden: must have cluster-admin privileges to use the aggregationRule`,
  });
  expectStatus(t, await create('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { ...review, spec: {} }, aliceToken), { code: 400, reason: 'BadRequest', message: 'no namespace on request' });
});

test('kube\'s bootstrap edit role reads and writes Secrets; view reads none', async (t) => {
  const ns = await createNamespace(server, 'rbac-edit');
  const bind = (role: string, user: string) =>
    create(`${rbac}/namespaces/${ns}/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: `${user}-${role}` }, roleRef: ref('ClusterRole', role), subjects: [userSubject(user)] });
  t.is((await bind('edit', 'alice')).status, 201);
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } };
  const created = await server.waitFor(async () => {
    const r = await create(`/api/v1/namespaces/${ns}/secrets`, secret, aliceToken);
    return r.status === 201 ? r : undefined;
  });
  t.is(created.status, 201);
  t.is((await server.request('GET', `/api/v1/namespaces/${ns}/secrets/s`, { token: aliceToken })).status, 200);
  t.is((await server.request('GET', `/api/v1/namespaces/${ns}/secrets`, { token: aliceToken })).status, 200);
  const edit = await server.request('GET', `${rbac}/clusterroles/edit`);
  t.true(
    edit.body.rules.some((r: { apiGroups: string[]; resources: string[]; verbs: string[] }) => r.apiGroups.includes('') && r.resources.includes('secrets') && ['get', 'list', 'watch'].every((v) => r.verbs.includes(v))),
    JSON.stringify(edit.body.rules),
  );
  const view = await server.request('GET', `${rbac}/clusterroles/view`);
  t.false(view.body.rules.some((r: { resources?: string[] }) => r.resources?.includes('secrets')), JSON.stringify(view.body.rules));
});

test('bootstrap roles are recreated and repaired at start, unless autoupdate is "false"', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-rbac-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startTestServer({ dataDir });
  try {
    t.is((await first.request('DELETE', `${rbac}/clusterroles/system:discovery`)).status, 200);
    const basic = await first.request('GET', `${rbac}/clusterroles/system:basic-user`);
    t.is((await first.request('PUT', `${rbac}/clusterroles/system:basic-user`, { body: { ...basic.body, rules: [] } })).status, 200);
    const viewer = await first.request('GET', `${rbac}/clusterroles/system:public-info-viewer`);
    const kept = { ...viewer.body, metadata: { ...viewer.body.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] };
    t.is((await first.request('PUT', `${rbac}/clusterroles/system:public-info-viewer`, { body: kept })).status, 200);
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir });
  try {
    const discovery = await second.request('GET', `${rbac}/clusterroles/system:discovery`);
    t.is(discovery.status, 200);
    t.is(discovery.body.metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults');
    t.is((await second.request('GET', `${rbac}/clusterroles/system:basic-user`)).body.rules.length, 3);
    t.deepEqual((await second.request('GET', `${rbac}/clusterroles/system:public-info-viewer`)).body.rules, []);
    // anonymous lost /version with it
    t.is((await second.request('GET', '/version', { token: null })).status, 403);
  } finally {
    await second.close();
  }
});

test('updating a role beyond one\'s rules is refused, labels too; only garbage-collection fields are free', async (t) => {
  const ns = await createNamespace(server, 'rbac-update');
  const role = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
  t.is((await create(`${rbac}/namespaces/${ns}/roles`, role('updater', [{ verbs: ['get', 'update', 'patch'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] }]))).status, 201);
  t.is((await create(`${rbac}/namespaces/${ns}/roles`, role('powerful', [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }]))).status, 201);
  const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice' }, roleRef: ref('Role', 'updater'), subjects: [userSubject('alice')] };
  t.is((await create(`${rbac}/namespaces/${ns}/rolebindings`, binding)).status, 201);
  const patch = (body: unknown) =>
    server.request('PATCH', `${rbac}/namespaces/${ns}/roles/powerful`, { body, contentType: 'application/merge-patch+json', token: aliceToken });
  const labelled = await server.waitFor(async () => {
    const r = await patch({ metadata: { labels: { team: 'a' } } });
    return r.status === 403 && r.body.message.includes('attempting to grant') ? r : undefined;
  });
  expectStatus(t, labelled, {
    code: 403,
    reason: 'Forbidden',
    message: `roles.rbac.authorization.k8s.io "powerful" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}`,
  });
  t.is((await patch({ metadata: { finalizers: ['example.com/keep'] } })).status, 200);
});
