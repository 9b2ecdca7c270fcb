/** Namespace lifecycle: initial namespaces, admission of namespaced objects, and termination. */
import test from 'ava';
import { createNamespace, createWidget, expectStatus, names, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

function waitGone(path: string) {
  return server.waitFor(async () => (await server.request('GET', path)).status === 404, 15_000, `${path} to be gone`);
}

test('default, kube-system and kube-public exist and are Active', async (t) => {
  for (const name of ['default', 'kube-system', 'kube-public']) {
    const res = await server.request('GET', `/api/v1/namespaces/${name}`);
    t.is(res.status, 200, name);
    t.is(res.body.kind, 'Namespace');
    t.is(res.body.apiVersion, 'v1');
    t.is(res.body.status?.phase, 'Active', name);
    t.deepEqual(res.body.spec?.finalizers, ['kubernetes'], name);
  }
  const list = await server.request('GET', '/api/v1/namespaces');
  t.true(['default', 'kube-public', 'kube-system'].every((n) => names(list.body).includes(n)));
});

test('the initial namespaces cannot be deleted', async (t) => {
  // NamespaceLifecycle admission: default, kube-system and kube-public are immortal.
  for (const name of ['default', 'kube-system', 'kube-public']) {
    const res = await server.request('DELETE', `/api/v1/namespaces/${name}`);
    expectStatus(t, res, { code: 403, reason: 'Forbidden', message: `namespaces "${name}" is forbidden: this namespace may not be deleted` });
    const get = await server.request('GET', `/api/v1/namespaces/${name}`);
    t.is(get.body.metadata.deletionTimestamp, undefined, name);
    t.is(get.body.status.phase, 'Active', name);
  }
});

test('a new namespace is Active with the kubernetes finalizer, and no generation (kube never sets one)', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  const res = await server.request('GET', `/api/v1/namespaces/${ns}`);
  t.is(res.body.status.phase, 'Active');
  t.deepEqual(res.body.spec.finalizers, ['kubernetes']);
  t.false('generation' in res.body.metadata);
  const labelled = await server.request('PATCH', `/api/v1/namespaces/${ns}`, { body: { metadata: { labels: { a: 'b' } } }, contentType: 'application/merge-patch+json' });
  t.is(labelled.status, 200);
  t.false('generation' in labelled.body.metadata);
});

test('PUT /finalize replaces spec.finalizers; once a terminating namespace has none it is gone', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  // A finalizer of its own keeps the namespace Terminating after the namespace controller removed "kubernetes".
  const held = await server.request('PUT', `/api/v1/namespaces/${ns}/finalize`, {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns }, spec: { finalizers: ['kubernetes', 'example.com/hold'] }, status: { phase: 'Bogus' } },
  });
  t.is(held.status, 200, held.text);
  t.deepEqual(held.body.spec.finalizers, ['kubernetes', 'example.com/hold']);
  t.is(held.body.status.phase, 'Active', 'status only changes through /status');
  await server.request('DELETE', `/api/v1/namespaces/${ns}`);
  const waiting = await server.waitFor(async () => {
    const res = await server.request('GET', `/api/v1/namespaces/${ns}`);
    return res.body.spec?.finalizers?.length === 1 ? res.body : undefined;
  });
  t.deepEqual(waiting.spec.finalizers, ['example.com/hold']);

  const bad = await server.request('PUT', `/api/v1/namespaces/${ns}/finalize`, { body: { ...waiting, spec: { finalizers: ['hold'] } } });
  expectStatus(t, bad, {
    code: 422,
    reason: 'Invalid',
    message: `Namespace "${ns}" is invalid: spec.finalizers[0]: Invalid value: "hold": name is neither a standard finalizer name nor is it fully qualified`,
  });
  const get = await server.request('GET', `/api/v1/namespaces/${ns}/finalize`);
  expectStatus(t, get, { code: 405, reason: 'MethodNotAllowed' });

  const done = await server.request('PUT', `/api/v1/namespaces/${ns}/finalize`, { body: { ...waiting, spec: {} } });
  t.is(done.status, 200, done.text);
  await waitGone(`/api/v1/namespaces/${ns}`);
});

test('every namespace carries its name as the kubernetes.io/metadata.name label, which a client cannot change', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  const created = await server.request('GET', `/api/v1/namespaces/${ns}`);
  t.deepEqual(created.body.metadata.labels, { 'kubernetes.io/metadata.name': ns });
  const patched = await server.request('PATCH', `/api/v1/namespaces/${ns}`, {
    body: { metadata: { labels: { 'kubernetes.io/metadata.name': 'other', team: 'a' } } },
    contentType: 'application/merge-patch+json',
  });
  t.is(patched.status, 200);
  t.deepEqual(patched.body.metadata.labels, { 'kubernetes.io/metadata.name': ns, team: 'a' });
  const system = await server.request('GET', '/api/v1/namespaces?labelSelector=kubernetes.io/metadata.name%20in%20(default,kube-system)');
  t.deepEqual(system.body.items.map((n: { metadata: { name: string } }) => n.metadata.name).sort(), ['default', 'kube-system']);
});

test('creating in a namespace that does not exist is 404 naming the namespace', async (t) => {
  const res = await server.request('POST', widgetsPath('nope'), { body: widget('w1') });
  expectStatus(t, res, { code: 404, reason: 'NotFound', message: 'namespaces "nope" not found' });
  t.deepEqual(res.body.details, { name: 'nope', kind: 'namespaces' });
  t.is((await server.request('GET', widgetsPath('nope', 'w1'))).status, 404);
});

test('DELETE of a namespace answers 200 with the namespace, now Terminating', async (t) => {
  // The namespace registry's Delete returns the updated namespace (kept by its "kubernetes" finalizer); the delete
  // handler answers 200 for it (202 only with orphanDependents=false).
  const ns = await createNamespace(server, 'nsl');
  const res = await server.request('DELETE', `/api/v1/namespaces/${ns}`);
  t.is(res.status, 200);
  t.is(res.body.kind, 'Namespace');
  t.is(res.body.metadata.name, ns);
  t.truthy(res.body.metadata.deletionTimestamp);
  t.is(res.body.status.phase, 'Terminating');
});

test('a deleted namespace is emptied, then disappears', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  await createWidget(server, ns, 'a');
  await createWidget(server, ns, 'b');
  const res = await server.request('DELETE', `/api/v1/namespaces/${ns}`);
  t.true(res.status === 200 || res.status === 202, `DELETE answered ${res.status}`);

  const terminating = await server.request('GET', `/api/v1/namespaces/${ns}`);
  // The namespace may already be gone if the controller was quick; if not, it must say Terminating.
  if (terminating.status === 200) t.is(terminating.body.status.phase, 'Terminating');
  else t.is(terminating.status, 404);

  await waitGone(`/api/v1/namespaces/${ns}`);
  const list = await server.request('GET', widgetsPath(ns));
  t.is(list.status, 200);
  t.deepEqual(list.body.items, []);
  t.is((await server.request('GET', widgetsPath(ns, 'a'))).status, 404);
  t.false(
    (await server.request('GET', '/apis/example.com/v1/widgets')).body.items.some((i: { metadata: { namespace: string } }) => i.metadata.namespace === ns),
  );
});

test('nothing can be created in a terminating namespace; it goes once its content is finalized', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  await createWidget(server, ns, 'held', { finalizers: ['example.com/hold'] });
  await server.request('DELETE', `/api/v1/namespaces/${ns}`);

  // The controller deletes the widget, which its finalizer keeps: the namespace stays Terminating.
  await server.waitFor(
    async () => (await server.request('GET', widgetsPath(ns, 'held'))).body.metadata?.deletionTimestamp,
    10_000,
    'the held widget to be marked for deletion',
  );
  const nsObj = await server.request('GET', `/api/v1/namespaces/${ns}`);
  t.is(nsObj.status, 200);
  t.is(nsObj.body.status.phase, 'Terminating');

  const res = await server.request('POST', widgetsPath(ns), { body: widget('x') });
  expectStatus(t, res, {
    code: 403,
    reason: 'Forbidden',
    message: `widgets.example.com "x" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
  });
  t.like(res.body.details, { name: 'x', group: 'example.com', kind: 'widgets' });
  t.deepEqual(res.body.details.causes, [{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }]);
  t.is((await server.request('GET', widgetsPath(ns, 'x'))).status, 404);

  // Updates of existing content are still allowed, so the finalizer can be removed; then the namespace goes.
  const release = await server.request('PATCH', widgetsPath(ns, 'held'), {
    body: { metadata: { finalizers: null } },
    contentType: 'application/merge-patch+json',
  });
  t.is(release.status, 200);
  await waitGone(`/api/v1/namespaces/${ns}`);
  t.pass();
});

test('a terminating namespace reports what holds it in kube\'s five deletion conditions, and again once the content is gone', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  await createWidget(server, ns, 'held', { finalizers: ['example.com/hold', 'example.com/other'] });
  await createWidget(server, ns, 'also', { finalizers: ['example.com/hold'] });
  const cm = await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers: ['example.com/hold'] } } });
  t.is(cm.status, 201);
  await server.request('DELETE', `/api/v1/namespaces/${ns}`);
  const conditions = (body: any) => (body.status?.conditions ?? []).map((c: any) => `${c.type} ${c.status} ${c.reason}: ${c.message}`);
  const held = await server.waitFor(async () => {
    const res = await server.request('GET', `/api/v1/namespaces/${ns}`);
    return res.body.status?.conditions?.length === 5 ? res.body : undefined;
  }, 10_000, 'the deletion conditions');
  t.deepEqual(conditions(held), [
    'NamespaceDeletionDiscoveryFailure False ResourcesDiscovered: All resources successfully discovered',
    'NamespaceDeletionGroupVersionParsingFailure False ParsedGroupVersions: All legacy kube types successfully parsed',
    'NamespaceDeletionContentFailure False ContentDeleted: All content successfully deleted, may be waiting on finalization',
    'NamespaceContentRemaining True SomeResourcesRemain: Some resources are remaining: configmaps. has 1 resource instances, widgets.example.com has 2 resource instances',
    'NamespaceFinalizersRemaining True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/hold in 3 resource instances, example.com/other in 1 resource instances',
  ]);
  t.true(held.status.conditions.every((c: any) => typeof c.lastTransitionTime === 'string'));

  const release = (path: string) => server.request('PATCH', path, { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
  t.is((await release(widgetsPath(ns, 'also'))).status, 200);
  t.is((await release(`/api/v1/namespaces/${ns}/configmaps/c`)).status, 200);
  const fewer = await server.waitFor(async () => {
    const res = await server.request('GET', `/api/v1/namespaces/${ns}`);
    return conditions(res.body)[3]?.endsWith('widgets.example.com has 1 resource instances') ? res.body : undefined;
  }, 10_000, 'the conditions to follow');
  t.is(conditions(fewer)[4], 'NamespaceFinalizersRemaining True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances, example.com/other in 1 resource instances');
  t.is(fewer.status.conditions[0].lastTransitionTime, held.status.conditions[0].lastTransitionTime, 'unchanged conditions keep their time');
  t.is((await release(widgetsPath(ns, 'held'))).status, 200);
  await waitGone(`/api/v1/namespaces/${ns}`);
});

test('namespaces are selectable by status.phase (kube\'s Namespace field selectors), custom resources are not', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  await createWidget(server, ns, 'held', { finalizers: ['example.com/hold'] });
  await server.request('DELETE', `/api/v1/namespaces/${ns}`);
  const terminating = await server.request('GET', `/api/v1/namespaces?fieldSelector=${encodeURIComponent('status.phase=Terminating')}`);
  t.is(terminating.status, 200, terminating.text);
  t.true(names(terminating.body).includes(ns));
  t.false(names(terminating.body).includes('default'));
  const active = await server.request('GET', `/api/v1/namespaces?fieldSelector=${encodeURIComponent(`status.phase=Active,metadata.name!=${ns}`)}`);
  t.is(active.status, 200, active.text);
  t.true(names(active.body).includes('default'));
  t.false(names(active.body).includes(ns));
  const finalizers = await server.request('GET', `/api/v1/namespaces?fieldSelector=${encodeURIComponent('spec.finalizers=kubernetes')}`);
  expectStatus(t, finalizers, { code: 400, reason: 'BadRequest', message: 'field label not supported: spec.finalizers' });
  const widgets = await server.request('GET', `${widgetsPath(ns)}?fieldSelector=${encodeURIComponent('status.phase=Active')}`);
  expectStatus(t, widgets, { code: 400, reason: 'BadRequest', message: 'field label not supported: status.phase' });

  const release = await server.request('PATCH', widgetsPath(ns, 'held'), {
    body: { metadata: { finalizers: null } },
    contentType: 'application/merge-patch+json',
  });
  t.is(release.status, 200);
  await waitGone(`/api/v1/namespaces/${ns}`);
});

test('a namespace can be created again after it is gone', async (t) => {
  const ns = await createNamespace(server, 'nsl');
  const first = await server.request('GET', `/api/v1/namespaces/${ns}`);
  await server.request('DELETE', `/api/v1/namespaces/${ns}`);
  await waitGone(`/api/v1/namespaces/${ns}`);
  const again = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  t.is(again.status, 201);
  t.not(again.body.metadata.uid, first.body.metadata.uid);
  t.is(again.body.status.phase, 'Active');
  await createWidget(server, ns, 'fresh');
});

test('cluster-scoped objects have no URLs inside a namespace', async (t) => {
  for (const path of [
    '/api/v1/namespaces/default/namespaces/default',
    '/apis/apiextensions.k8s.io/v1/namespaces/default/customresourcedefinitions',
    '/apis/apiextensions.k8s.io/v1/namespaces/default/customresourcedefinitions/widgets.example.com',
  ]) {
    const res = await server.request('GET', path);
    expectStatus(t, res, { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' });
  }
});
