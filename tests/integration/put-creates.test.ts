/**
 * A PUT to a name nothing is stored under: kinds whose kube strategy allows create on update (Leases, Events in both
 * groups, Endpoints, Services) create the object (201) through the create admission and validation; others answer
 * kube's 404.
 */
import test from 'ava';
import { createNamespace, expectStatus, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

const renewerToken = 'renewer-token';
const server = useTestServer({ widgetsCrd: true, tokens: [{ token: renewerToken, user: { username: 'renewer', groups: ['system:authenticated'] } }] });

const leasesPath = (ns: string, name?: string) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases${name ? `/${name}` : ''}`;
const lease = (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, ...metadata },
  spec,
});

test('a PUT creates a missing Lease (201, system metadata filled in); the next PUT updates it and needs its resourceVersion', async (t) => {
  const ns = await createNamespace(server, 'put-create');
  // No resourceVersion: Leases refuse unconditional updates, yet a create needs none.
  const created = await server.request('PUT', leasesPath(ns, 'leader'), { body: lease('leader', { holderIdentity: 'a', leaseDurationSeconds: 15 }) });
  t.is(created.status, 201, created.text);
  t.like(created.body, { metadata: { name: 'leader', namespace: ns }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } });
  t.truthy(created.body.metadata.uid);
  t.truthy(created.body.metadata.creationTimestamp);
  t.truthy(created.body.metadata.resourceVersion);
  t.like(created.body.metadata.managedFields?.[0], { operation: 'Update', apiVersion: 'coordination.k8s.io/v1' });

  const got = await server.request('GET', leasesPath(ns, 'leader'));
  t.is(got.status, 200);
  t.deepEqual(got.body, created.body);

  const unconditional = await server.request('PUT', leasesPath(ns, 'leader'), { body: lease('leader', { holderIdentity: 'b' }) });
  expectStatus(t, unconditional, {
    code: 422,
    reason: 'Invalid',
    message: 'leases.coordination.k8s.io "leader" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  });
  const updated = await server.request('PUT', leasesPath(ns, 'leader'), {
    body: lease('leader', { holderIdentity: 'b' }, { resourceVersion: created.body.metadata.resourceVersion }),
  });
  t.is(updated.status, 200, updated.text);
  t.is(updated.body.metadata.uid, created.body.metadata.uid);
});

test('a PUT create is validated as a create: an invalid Lease is a 422, nothing stored; dry-run stores nothing; a UID is a 409', async (t) => {
  const ns = await createNamespace(server, 'put-create');
  const invalid = await server.request('PUT', leasesPath(ns, 'bad'), { body: lease('bad', { leaseDurationSeconds: 0 }) });
  t.is(invalid.status, 422, invalid.text);
  t.is(invalid.body.reason, 'Invalid');
  const dryRun = await server.request('PUT', `${leasesPath(ns, 'dry')}?dryRun=All`, { body: lease('dry', { holderIdentity: 'a' }) });
  t.is(dryRun.status, 201, dryRun.text);
  // A body naming a UID is about that object only: kube's UID precondition fails on the missing one.
  const withUid = await server.request('PUT', leasesPath(ns, 'uid'), { body: lease('uid', { holderIdentity: 'a' }, { uid: 'u-1' }) });
  t.is(withUid.status, 409, withUid.text);
  t.is(withUid.body.reason, 'Conflict');
  t.regex(withUid.body.message, /^Operation cannot be fulfilled on leases\.coordination\.k8s\.io "uid": StorageError: invalid object, Code: 4, Key: .*uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u-1, UID in object meta: $/);
  for (const name of ['bad', 'dry', 'uid']) t.is((await server.request('GET', leasesPath(ns, name))).status, 404, name);
});

test('a PUT creates missing Endpoints and a missing Service', async (t) => {
  const ns = await createNamespace(server, 'put-create');
  const ep = await server.request('PUT', `/api/v1/namespaces/${ns}/endpoints/api`, {
    body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'api' }, subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 8443 }] }] },
  });
  t.is(ep.status, 201, ep.text);
  t.deepEqual(ep.body.subsets, [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 8443, protocol: 'TCP' }] }], 'defaulted as on create');

  const svc = await server.request('PUT', `/api/v1/namespaces/${ns}/services/api`, {
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api' }, spec: { ports: [{ port: 443 }] } },
  });
  t.is(svc.status, 201, svc.text);
  t.truthy(svc.body.spec.clusterIP, 'a cluster IP is allocated as on create');
});

test('a PUT to a missing ConfigMap, Secret or custom resource stays kube\'s 404', async (t) => {
  const ns = await createNamespace(server, 'put-create');
  const cm = await server.request('PUT', `/api/v1/namespaces/${ns}/configmaps/missing`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'missing' } } });
  expectStatus(t, cm, { code: 404, reason: 'NotFound', message: 'configmaps "missing" not found' });
  const secret = await server.request('PUT', `/api/v1/namespaces/${ns}/secrets/missing`, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'missing' } } });
  expectStatus(t, secret, { code: 404, reason: 'NotFound', message: 'secrets "missing" not found' });
  // Found missing before the resourceVersion a custom resource's update needs is asked for, as kube's Store.Update.
  const cr = await server.request('PUT', widgetsPath(ns, 'missing'), { body: widget('missing') });
  expectStatus(t, cr, { code: 404, reason: 'NotFound', message: 'widgets.example.com "missing" not found' });
  t.is((await server.request('GET', `/api/v1/namespaces/${ns}/configmaps/missing`)).status, 404);
});

test('a PUT through events.k8s.io/v1 creates the Event, read through core/v1 too', async (t) => {
  const ns = await createNamespace(server, 'put-create');
  const body = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: 'e1', namespace: ns },
    eventTime: '2026-01-01T00:00:00.000001Z',
    reportingController: 'example.com/controller',
    reportingInstance: 'controller-0',
    action: 'Reconcile',
    reason: 'Tested',
    regarding: { kind: 'ConfigMap', namespace: ns, name: 'target', apiVersion: 'v1' },
    note: 'created by a PUT',
    type: 'Normal',
  };
  const created = await server.request('PUT', `/apis/events.k8s.io/v1/namespaces/${ns}/events/e1`, { body });
  t.is(created.status, 201, created.text);
  t.like(created.body, { apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'created by a PUT' });
  const core = await server.request('GET', `/api/v1/namespaces/${ns}/events/e1`);
  t.is(core.status, 200);
  t.like(core.body, { apiVersion: 'v1', kind: 'Event', message: 'created by a PUT', reason: 'Tested' });
  const again = await server.request('PUT', `/apis/events.k8s.io/v1/namespaces/${ns}/events/e1`, {
    body: { ...body, metadata: { ...body.metadata, labels: { seen: 'twice' } } },
  });
  t.is(again.status, 200, again.text);
  t.is(again.body.metadata.uid, created.body.metadata.uid);
  t.deepEqual(again.body.metadata.labels, { seen: 'twice' });
});

test('a PUT that would create needs the create permission too (kube\'s withAuthorization): one who may only update is refused', async (t) => {
  const ns = await createNamespace(server, 'put-create-authz');
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'lease-renewer' }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'update'] }] };
  t.is((await server.request('POST', `${rbac}/namespaces/${ns}/roles`, { body: role })).status, 201);
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'renewer' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'lease-renewer' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'renewer' }],
  };
  t.is((await server.request('POST', `${rbac}/namespaces/${ns}/rolebindings`, { body: binding })).status, 201);
  const refused = await server.request('PUT', leasesPath(ns, 'leader'), { body: lease('leader', { holderIdentity: 'r' }), token: renewerToken });
  expectStatus(t, refused, {
    code: 403,
    reason: 'Forbidden',
    message: `leases.coordination.k8s.io "leader" is forbidden: User "renewer" cannot create resource "leases" in API group "coordination.k8s.io" in the namespace "${ns}"`,
  });
  t.is((await server.request('GET', leasesPath(ns, 'leader'))).status, 404, 'nothing created');
  const created = await server.request('PUT', leasesPath(ns, 'leader'), { body: lease('leader', { holderIdentity: 'admin' }) });
  t.is(created.status, 201);
  const renewed = await server.request('PUT', leasesPath(ns, 'leader'), {
    body: lease('leader', { holderIdentity: 'r' }, { resourceVersion: created.body.metadata.resourceVersion }),
    token: renewerToken,
  });
  t.is(renewed.status, 200, renewed.text);
});
