/** The resource URIs and verbs, on a namespaced custom resource (widgets) and on cluster-scoped namespaces. */
import test from 'ava';
import { createNamespace, createWidget, expectStatus, names, suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const notFoundPath = { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' };

test('POST creates a widget: 201 with the stored object', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w1', { spec: { color: 'red', replicas: 2 } }) });
  t.is(res.status, 201);
  t.is(res.body.apiVersion, 'example.com/v1');
  t.is(res.body.kind, 'Widget');
  t.is(res.body.metadata.name, 'w1');
  t.is(res.body.metadata.namespace, ns);
  t.is(res.body.metadata.generation, 1);
  t.regex(res.body.metadata.resourceVersion, /^\d+$/);
  t.deepEqual(res.body.spec, { color: 'red', replicas: 2 });
});

test('an object to be created that carries a resourceVersion is kube storage\'s bare 500, and nothing is stored; dry run and "0" pass', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const pinned = (name: string, resourceVersion: string) => ({ ...widget(name), metadata: { name, resourceVersion } });
  const res = await server.request('POST', widgetsPath(ns), { body: pinned('pinned', '5') });
  t.is(res.status, 500, res.text);
  t.deepEqual(res.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion should not be set on objects to be created', code: 500 });
  t.is((await server.request('GET', widgetsPath(ns, 'pinned'))).status, 404);
  t.is((await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: pinned('pinned', '5') })).status, 201);
  const zero = await server.request('POST', widgetsPath(ns), { body: pinned('zero', '0') });
  t.is(zero.status, 201, zero.text);
  t.not(zero.body.metadata.resourceVersion, '0');
});

test('GET returns the object as created', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const created = await createWidget(server, ns, 'w1');
  const res = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(res.status, 200);
  t.is(res.body.kind, 'Widget');
  t.is(res.body.apiVersion, 'example.com/v1');
  t.is(res.body.metadata.uid, created.metadata.uid);
  t.is(res.body.metadata.resourceVersion, created.metadata.resourceVersion);
  t.deepEqual(res.body.spec, created.spec);
});

test('GET of a missing widget is 404 NotFound naming the object', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const res = await server.request('GET', widgetsPath(ns, 'missing'));
  expectStatus(t, res, { code: 404, reason: 'NotFound', message: 'widgets.example.com "missing" not found' });
  t.deepEqual(res.body.details, { name: 'missing', group: 'example.com', kind: 'widgets' });
});

test('a namespace list only returns that namespace', async (t) => {
  const ns1 = await createNamespace(server, 'crud');
  const ns2 = await createNamespace(server, 'crud');
  await createWidget(server, ns1, 'a');
  await createWidget(server, ns1, 'b');
  await createWidget(server, ns2, 'c');
  const res = await server.request('GET', widgetsPath(ns1));
  t.is(res.status, 200);
  t.is(res.body.kind, 'WidgetList');
  t.is(res.body.apiVersion, 'example.com/v1');
  t.regex(res.body.metadata.resourceVersion, /^\d+$/);
  t.deepEqual(names(res.body), ['a', 'b']);
});

test('the cluster-wide list returns widgets of every namespace', async (t) => {
  const ns1 = await createNamespace(server, 'crud');
  const ns2 = await createNamespace(server, 'crud');
  await createWidget(server, ns1, 'a');
  await createWidget(server, ns2, 'b');
  const res = await server.request('GET', '/apis/example.com/v1/widgets');
  t.is(res.status, 200);
  t.is(res.body.kind, 'WidgetList');
  const ours = res.body.items
    .filter((i: { metadata: { namespace: string } }) => i.metadata.namespace === ns1 || i.metadata.namespace === ns2)
    .map((i: { metadata: { namespace: string; name: string } }) => `${i.metadata.namespace}/${i.metadata.name}`)
    .sort();
  t.deepEqual(ours, [`${ns1}/a`, `${ns2}/b`].sort());
});

test('only lists and watches span all namespaces: any other verb there is 404 for custom resources, 405 on a built-in\'s collection, and touches nothing', async (t) => {
  const ns = await createNamespace(server, 'crud');
  await createWidget(server, ns, 'kept');
  const cm = await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' } } });
  t.is(cm.status, 201);
  const notFound = { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' };
  const notAllowed = { code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' };
  expectStatus(t, await server.request('DELETE', '/apis/example.com/v1/widgets'), notFound);
  expectStatus(t, await server.request('POST', '/apis/example.com/v1/widgets', { body: widget('w') }), notFound);
  expectStatus(t, await server.request('GET', '/apis/example.com/v1/widgets/kept'), notFound);
  expectStatus(t, await server.request('DELETE', '/api/v1/configmaps'), notAllowed);
  expectStatus(t, await server.request('POST', '/api/v1/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } }), notAllowed);
  expectStatus(t, await server.request('DELETE', '/api/v1/configmaps/kept'), notFound);
  t.is((await server.request('GET', widgetsPath(ns, 'kept'))).status, 200);
  t.is((await server.request('GET', `/api/v1/namespaces/${ns}/configmaps/kept`)).status, 200);
});

test('a collection takes no PUT or PATCH, and a subresource that is not served is missing: as kube answers them for custom and built-in resources', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const kept = await createWidget(server, ns, 'kept');
  const merge = { body: {}, contentType: 'application/merge-patch+json' };
  const nameRequired = { code: 400, reason: 'BadRequest', message: 'name must be provided' };
  const notAllowed = { code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' };
  expectStatus(t, await server.request('PUT', widgetsPath(ns), { body: kept }), nameRequired);
  expectStatus(t, await server.request('PATCH', widgetsPath(ns), merge), nameRequired);
  expectStatus(t, await server.request('PUT', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } }), notAllowed);
  expectStatus(t, await server.request('PATCH', `/api/v1/namespaces/${ns}/configmaps`, merge), notAllowed);
  const bogus = await server.request('GET', `${widgetsPath(ns, 'kept')}/bogus`);
  expectStatus(t, bogus, { code: 404, reason: 'NotFound', message: 'widgets.example.com "kept" not found' });
  t.deepEqual(bogus.body.details, { name: 'kept', group: 'example.com', kind: 'widgets' });
  expectStatus(t, await server.request('GET', `/api/v1/namespaces/${ns}/configmaps/kept/bogus`), { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' });
});

test('PUT replaces the object; generation follows spec changes only', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const created = await createWidget(server, ns, 'w1');

  const relabeled = { ...created, metadata: { ...created.metadata, labels: { tier: 'gold' } } };
  const res1 = await server.request('PUT', widgetsPath(ns, 'w1'), { body: relabeled });
  t.is(res1.status, 200);
  t.deepEqual(res1.body.metadata.labels, { tier: 'gold' });
  t.is(res1.body.metadata.generation, 1, 'a label change does not bump generation');
  t.not(res1.body.metadata.resourceVersion, created.metadata.resourceVersion);
  t.is(res1.body.metadata.uid, created.metadata.uid);

  const respecced = { ...res1.body, spec: { color: 'blue', replicas: 3 } };
  const res2 = await server.request('PUT', widgetsPath(ns, 'w1'), { body: respecced });
  t.is(res2.status, 200);
  t.deepEqual(res2.body.spec, { color: 'blue', replicas: 3 });
  t.is(res2.body.metadata.generation, 2, 'a spec change bumps generation');

  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.metadata.resourceVersion, res2.body.metadata.resourceVersion);
  t.deepEqual(get.body.spec, { color: 'blue', replicas: 3 });
});

test('PUT of a custom resource without resourceVersion is 422 on metadata.resourceVersion', async (t) => {
  const ns = await createNamespace(server, 'crud');
  await createWidget(server, ns, 'w1');
  const res = await server.request('PUT', widgetsPath(ns, 'w1'), { body: widget('w1', { spec: { color: 'green' } }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(
    res.body.details?.causes?.map((c: { field: string }) => c.field),
    ['metadata.resourceVersion'],
  );
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.spec.color, 'red', 'the object is unchanged');
});

test('the 422 for a missing resourceVersion has kube-apiserver text and details', async (t) => {
  // kube (registry/generic/registry/store.go) qualifies this error with the resource, not the kind:
  // GroupKind{Group, Kind: qualifiedResource.Resource}.
  const ns = await createNamespace(server, 'crud');
  await createWidget(server, ns, 'w1');
  const res = await server.request('PUT', widgetsPath(ns, 'w1'), { body: widget('w1') });
  expectStatus(t, res, {
    code: 422,
    reason: 'Invalid',
    message: 'widgets.example.com "w1" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  });
  t.deepEqual(res.body.details, {
    name: 'w1',
    group: 'example.com',
    kind: 'widgets',
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
  });
});

test('PATCH with a JSON merge patch', async (t) => {
  const ns = await createNamespace(server, 'crud');
  await createWidget(server, ns, 'w1', { spec: { color: 'red', replicas: 1 } });
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), {
    body: { metadata: { labels: { tier: 'gold' } }, spec: { color: 'blue', replicas: null } },
    contentType: 'application/merge-patch+json',
  });
  t.is(res.status, 200);
  t.deepEqual(res.body.spec, { color: 'blue' });
  t.deepEqual(res.body.metadata.labels, { tier: 'gold' });
  t.is(res.body.metadata.generation, 2);
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.deepEqual(get.body.spec, { color: 'blue' });
});

test('PATCH with a JSON patch', async (t) => {
  const ns = await createNamespace(server, 'crud');
  await createWidget(server, ns, 'w1', { spec: { color: 'red', replicas: 1 } });
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), {
    body: [
      { op: 'test', path: '/spec/color', value: 'red' },
      { op: 'replace', path: '/spec/color', value: 'green' },
      { op: 'add', path: '/spec/replicas', value: 4 },
    ],
    contentType: 'application/json-patch+json',
  });
  t.is(res.status, 200);
  t.deepEqual(res.body.spec, { color: 'green', replicas: 4 });
});

test('a JSON patch whose test op fails is 422 and changes nothing', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const created = await createWidget(server, ns, 'w1', { spec: { color: 'red', replicas: 1 } });
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), {
    body: [
      { op: 'replace', path: '/spec/replicas', value: 9 },
      { op: 'test', path: '/spec/color', value: 'purple' },
    ],
    contentType: 'application/json-patch+json',
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.metadata.resourceVersion, created.metadata.resourceVersion);
  t.deepEqual(get.body.spec, { color: 'red', replicas: 1 });
});

test('a strategic merge patch on a custom resource merges (kapi serves it; kube-apiserver refuses it)', async (t) => {
  const ns = await createNamespace(server, 'crud');
  await createWidget(server, ns, 'w1');
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), {
    body: { spec: { color: 'blue' } },
    contentType: 'application/strategic-merge-patch+json',
  });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec, { color: 'blue', replicas: 1 });
});

test('a patch in an unknown media type is 415 listing the patch types served', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const created = await createWidget(server, ns, 'w1');
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), { body: { spec: { color: 'blue' } }, contentType: 'application/x-foo' });
  expectStatus(t, res, { code: 415, reason: 'UnsupportedMediaType' });
  t.true(res.body.message.startsWith('the body of the request was in an unknown format - accepted media types include: '), res.body.message);
  for (const type of ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']) {
    t.true(res.body.message.includes(type), type);
  }
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.metadata.resourceVersion, created.metadata.resourceVersion);
});

test('DELETE removes a widget: 200 with the deleted object', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const created = await createWidget(server, ns, 'w1');
  const res = await server.request('DELETE', widgetsPath(ns, 'w1'));
  t.is(res.status, 200);
  t.is(res.body.kind, 'Widget');
  t.is(res.body.metadata.uid, created.metadata.uid);
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  expectStatus(t, get, { code: 404, reason: 'NotFound', message: 'widgets.example.com "w1" not found' });
  const again = await server.request('DELETE', widgetsPath(ns, 'w1'));
  expectStatus(t, again, { code: 404, reason: 'NotFound', message: 'widgets.example.com "w1" not found' });
});

test('DELETE removes a built-in object: 200 with a Success Status, as kube answers for its built-in kinds', async (t) => {
  const path = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
  const body = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'crud-delete' } };
  const created = await server.request('POST', path, { body });
  t.is(created.status, 201, created.text);
  const res = await server.request('DELETE', `${path}/crud-delete`);
  t.is(res.status, 200);
  t.deepEqual(res.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: 'crud-delete', group: 'admissionregistration.k8s.io', kind: 'validatingwebhookconfigurations', uid: created.body.metadata.uid },
  });
  t.is((await server.request('GET', `${path}/crud-delete`)).status, 404);
});

test('DELETE of a collection with a labelSelector deletes only the matching objects', async (t) => {
  const ns = await createNamespace(server, 'crud');
  const other = await createNamespace(server, 'crud');
  await createWidget(server, ns, 'a', { labels: { tier: 'gold' } });
  await createWidget(server, ns, 'b', { labels: { tier: 'gold' } });
  await createWidget(server, ns, 'c', { labels: { tier: 'silver' } });
  await createWidget(server, ns, 'd');
  await createWidget(server, other, 'e', { labels: { tier: 'gold' } });
  const res = await server.request('DELETE', `${widgetsPath(ns)}?labelSelector=tier%3Dgold`);
  t.is(res.status, 200);
  t.is(res.body.kind, 'WidgetList');
  t.deepEqual(names(res.body).sort(), ['a', 'b']);
  const left = await server.request('GET', widgetsPath(ns));
  t.deepEqual(names(left.body), ['c', 'd']);
  const untouched = await server.request('GET', widgetsPath(other));
  t.deepEqual(names(untouched.body), ['e'], 'other namespaces are not touched');
});

test('namespaces: create, get, list, update and patch a cluster-scoped object', async (t) => {
  const name = `crud-ns-${suffix()}`;
  const created = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  t.is(created.status, 201);
  t.is(created.body.metadata.name, name);
  t.is(created.body.metadata.namespace, undefined);
  t.is(created.body.status.phase, 'Active');

  const get = await server.request('GET', `/api/v1/namespaces/${name}`);
  t.is(get.status, 200);
  t.is(get.body.metadata.uid, created.body.metadata.uid);

  const list = await server.request('GET', '/api/v1/namespaces');
  t.is(list.status, 200);
  t.is(list.body.kind, 'NamespaceList');
  t.true(names(list.body).includes(name));

  const put = await server.request('PUT', `/api/v1/namespaces/${name}`, {
    body: { ...get.body, metadata: { ...get.body.metadata, labels: { team: 'a' } } },
  });
  t.is(put.status, 200);
  t.deepEqual(put.body.metadata.labels, { team: 'a', 'kubernetes.io/metadata.name': name });

  const patch = await server.request('PATCH', `/api/v1/namespaces/${name}`, {
    body: { metadata: { labels: { team: 'b' } } },
    contentType: 'application/merge-patch+json',
  });
  t.is(patch.status, 200);
  t.deepEqual(patch.body.metadata.labels, { team: 'b', 'kubernetes.io/metadata.name': name });
});

test('a namespace can be updated without a resourceVersion (unconditional update)', async (t) => {
  // The namespace strategy allows unconditional updates: the registry takes the stored resourceVersion.
  const name = `crud-ns-${suffix()}`;
  t.is((await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } })).status, 201);
  const put = await server.request('PUT', `/api/v1/namespaces/${name}`, {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { team: 'a' } } },
  });
  t.is(put.status, 200, put.text);
  t.deepEqual(put.body.metadata?.labels, { team: 'a', 'kubernetes.io/metadata.name': name });
});

test('a method the resource does not support is 405 MethodNotAllowed', async (t) => {
  const name = `crud-ns-${suffix()}`;
  t.is((await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } })).status, 201);
  // POST to an object URL (kube's go-restful router has no such route → 405).
  const post = await server.request('POST', `/api/v1/namespaces/${name}`, { body: { metadata: { name } } });
  expectStatus(t, post, { code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' });
  // Namespaces have no deletecollection.
  const deleteAll = await server.request('DELETE', '/api/v1/namespaces');
  expectStatus(t, deleteAll, { code: 405, reason: 'MethodNotAllowed' });
  t.is((await server.request('GET', `/api/v1/namespaces/${name}`)).status, 200, 'nothing was deleted');
});

test('an unknown resource, version or group is 404 NotFound', async (t) => {
  for (const path of [
    '/apis/example.com/v1/namespaces/default/gizmos',
    '/apis/example.com/v9/namespaces/default/widgets',
    '/apis/nope.example.org/v1/things',
    '/api/v1/gizmos',
  ]) {
    const res = await server.request('GET', path);
    expectStatus(t, res, notFoundPath);
    t.deepEqual(res.body.details, {}, path);
  }
});
