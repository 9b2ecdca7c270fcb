/**
 * The non-apply PATCH media types. Strategic merge patch is served for built-in kinds only (kube-apiserver answers 415
 * for custom resources), so its directives are exercised on namespaces: metadata.finalizers (merged, primitive) and
 * metadata.ownerReferences (merged by uid). JSON patch and JSON merge patch on a custom resource with list-maps, sets
 * and atomic lists (gizmos.ssa.example.com) replace lists as RFC 6902 / 7386 say. `force` is for apply only.
 */
import test, { type ExecutionContext } from 'ava';
import { expectStatus, createNamespace, installCrd, suffix, useTestServer, type TestResponse } from '../helpers/test-server.js';
import { gizmoConfig, gizmosCrd, gizmosPath } from '../helpers/ssa.js';

const server = useTestServer();

/** How a body the merge engine cannot take may be refused (kube-apiserver 1.32 answers 500 for these; 4xx is better). */
const refusedCodes = [400, 422, 500];

test.serial.before(async () => {
  await installCrd(server, gizmosCrd());
});

const smp = 'application/strategic-merge-patch+json';

function patch(path: string, body: unknown, contentType: string): Promise<TestResponse> {
  return server.request('PATCH', path, { body, contentType });
}

/** An owner reference with uid `uid` (valid for ObjectMeta validation). */
function ownerRef(uid: string, name = `owner-${uid}`) {
  return { apiVersion: 'example.com/v1', kind: 'Widget', name, uid };
}

/** Creates a namespace with the given metadata fields; returns its path. */
async function namespaceWith(metadata: Record<string, unknown>): Promise<{ name: string; path: string }> {
  const name = `patch-ns-${suffix()}`;
  const res = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...metadata } } });
  if (res.status !== 201) throw new Error(`creating namespace ${name}: ${res.status} ${res.text}`);
  return { name, path: `/api/v1/namespaces/${name}` };
}

/** A namespace's labels as kube keeps them: the given ones and its name under kubernetes.io/metadata.name. */
function nsLabels(name: string, labels: Record<string, string> = {}): Record<string, string> {
  return { ...labels, 'kubernetes.io/metadata.name': name };
}

function uids(obj: any): string[] {
  return ((obj?.metadata?.ownerReferences ?? []) as { uid: string }[]).map((r) => r.uid);
}

/** The namespace's finalizers are released at the end of each test that set some (so it can be deleted). */
async function releaseFinalizers(t: ExecutionContext, path: string): Promise<void> {
  const res = await patch(path, { metadata: { finalizers: null } }, 'application/merge-patch+json');
  t.is(res.status, 200, res.text);
}

// ---------------------------------------------------------------------------------------------------------------
// Strategic merge patch on a built-in kind

test('strategic merge patch merges metadata.finalizers instead of replacing them', async (t) => {
  const { path } = await namespaceWith({ finalizers: ['example.com/a'] });
  const res = await patch(path, { metadata: { finalizers: ['example.com/b'] } }, smp);
  t.is(res.status, 200, res.text);
  // Without $setElementOrder, kube's merge puts the patch's new items before the server-only ones.
  t.deepEqual(res.body.metadata.finalizers, ['example.com/b', 'example.com/a']);
  await releaseFinalizers(t, path);
});

test('$deleteFromPrimitiveList removes values from a merged primitive list', async (t) => {
  const { path } = await namespaceWith({ finalizers: ['example.com/a', 'example.com/b'] });
  const res = await patch(path, { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } }, smp);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.metadata.finalizers, ['example.com/b']);
  await releaseFinalizers(t, path);
});

test('strategic merge patch merges ownerReferences by uid: a new item is added, the others kept', async (t) => {
  const { path } = await namespaceWith({ ownerReferences: [ownerRef('u1'), ownerRef('u2')] });
  const res = await patch(path, { metadata: { ownerReferences: [ownerRef('u3')] } }, smp);
  t.is(res.status, 200, res.text);
  t.deepEqual(uids(res.body), ['u3', 'u1', 'u2'], 'new patch items first, as kube orders them');
  t.deepEqual(res.body.metadata.ownerReferences[1], ownerRef('u1'));
});

test('strategic merge patch merges the fields of the item with the same key', async (t) => {
  const { path } = await namespaceWith({ ownerReferences: [ownerRef('u1'), ownerRef('u2')] });
  const res = await patch(path, { metadata: { ownerReferences: [{ uid: 'u2', name: 'renamed' }] } }, smp);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.metadata.ownerReferences, [ownerRef('u1'), { ...ownerRef('u2'), name: 'renamed' }]);
});

test('$patch: delete on a list item removes the item with that key', async (t) => {
  const { path } = await namespaceWith({ ownerReferences: [ownerRef('u1'), ownerRef('u2')] });
  const res = await patch(path, { metadata: { ownerReferences: [{ uid: 'u1', $patch: 'delete' }] } }, smp);
  t.is(res.status, 200, res.text);
  t.deepEqual(uids(res.body), ['u2']);
});

test('$patch: replace in a list replaces the whole list', async (t) => {
  const { path } = await namespaceWith({ ownerReferences: [ownerRef('u1'), ownerRef('u2')] });
  const res = await patch(path, { metadata: { ownerReferences: [{ $patch: 'replace' }, ownerRef('u9')] } }, smp);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.metadata.ownerReferences, [ownerRef('u9')]);
});

test('$patch: replace and $patch: delete on a map', async (t) => {
  const { name, path } = await namespaceWith({ labels: { a: '1', b: '2' } });
  const replaced = await patch(path, { metadata: { labels: { $patch: 'replace', c: '3' } } }, smp);
  t.is(replaced.status, 200, replaced.text);
  t.deepEqual(replaced.body.metadata.labels, nsLabels(name, { c: '3' }));
  const deleted = await patch(path, { metadata: { labels: { $patch: 'delete' } } }, smp);
  t.is(deleted.status, 200, deleted.text);
  t.deepEqual(deleted.body.metadata.labels, nsLabels(name), 'only the label kube keeps on every namespace');
});

test('$setElementOrder orders the merged list', async (t) => {
  const { path } = await namespaceWith({ ownerReferences: [ownerRef('u1'), ownerRef('u2')] });
  const reorder = await patch(path, { metadata: { '$setElementOrder/ownerReferences': [{ uid: 'u2' }, { uid: 'u1' }] } }, smp);
  t.is(reorder.status, 200, reorder.text);
  t.deepEqual(uids(reorder.body), ['u2', 'u1']);
  const insert = await patch(
    path,
    { metadata: { '$setElementOrder/ownerReferences': [{ uid: 'u2' }, { uid: 'u3' }, { uid: 'u1' }], ownerReferences: [ownerRef('u3')] } },
    smp,
  );
  t.is(insert.status, 200, insert.text);
  t.deepEqual(uids(insert.body), ['u2', 'u3', 'u1']);
});

test('$setElementOrder of primitives orders a merged primitive list', async (t) => {
  const { path } = await namespaceWith({ finalizers: ['example.com/a', 'example.com/b'] });
  const res = await patch(
    path,
    { metadata: { '$setElementOrder/finalizers': ['example.com/c', 'example.com/b', 'example.com/a'], finalizers: ['example.com/c'] } },
    smp,
  );
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.metadata.finalizers, ['example.com/c', 'example.com/b', 'example.com/a']);
  await releaseFinalizers(t, path);
});

test('an unknown $patch directive is refused and changes nothing', async (t) => {
  const { name, path } = await namespaceWith({ labels: { a: '1' } });
  const res = await patch(path, { metadata: { labels: { $patch: 'explode', b: '2' } } }, smp);
  // kube-apiserver answers 500 with "unknown patch type: explode in map: ..." (the error is not a Status).
  t.true(refusedCodes.includes(res.status), `refused with 400, 422 or 500 (got ${res.status}: ${res.text.slice(0, 300)})`);
  t.regex(String(res.body?.message), /explode/);
  const get = await server.request('GET', path);
  t.deepEqual(get.body.metadata.labels, nsLabels(name, { a: '1' }));
});

test('a $setElementOrder that is not a list, or does not list the patch items, is refused', async (t) => {
  const { path } = await namespaceWith({ finalizers: ['example.com/a'] });
  for (const metadata of [
    { '$setElementOrder/finalizers': 'example.com/a' },
    { '$setElementOrder/finalizers': ['example.com/a'], finalizers: ['example.com/z'] },
  ]) {
    const res = await patch(path, { metadata }, smp);
    t.true(refusedCodes.includes(res.status), `${JSON.stringify(metadata)}: refused (got ${res.status}: ${res.text.slice(0, 300)})`);
  }
  const get = await server.request('GET', path);
  t.deepEqual(get.body.metadata.finalizers, ['example.com/a']);
  await releaseFinalizers(t, path);
});

// ---------------------------------------------------------------------------------------------------------------
// Custom resources

test('strategic merge patch of a custom resource merges list-maps by key, sets by value, replaces atomic lists (kube refuses it; kapi serves it)', async (t) => {
  const ns = await createNamespace(server, 'patch');
  const path = gizmosPath(ns, 'g1');
  const created = await server.request('POST', gizmosPath(ns), { body: gizmoConfig('g1', { ports: [{ name: 'a', port: 1 }], tags: ['x'], args: ['1', '2'] }) });
  t.is(created.status, 201, created.text);
  const res = await patch(path, { spec: { ports: [{ name: 'b', port: 2 }], tags: ['y'], args: ['3'] } }, smp);
  t.is(res.status, 200, res.text);
  // New items go before the ones the patch does not name, as kube's strategic merge orders them.
  t.deepEqual(res.body.spec.ports, [{ name: 'b', port: 2 }, { name: 'a', port: 1 }]);
  t.deepEqual(res.body.spec.tags, ['y', 'x']);
  t.deepEqual(res.body.spec.args, ['3']);
  const removed = await patch(path, { spec: { ports: [{ name: 'a', $patch: 'delete' }], '$deleteFromPrimitiveList/tags': ['x'] } }, smp);
  t.is(removed.status, 200, removed.text);
  t.deepEqual(removed.body.spec.ports, [{ name: 'b', port: 2 }]);
  t.deepEqual(removed.body.spec.tags, ['y']);
});

test('a JSON merge patch replaces list-maps, sets and atomic lists whole', async (t) => {
  const ns = await createNamespace(server, 'patch');
  const created = await server.request('POST', gizmosPath(ns), {
    body: gizmoConfig('g1', { ports: [{ name: 'a', port: 1 }], tags: ['x'], args: ['1', '2'] }),
  });
  t.is(created.status, 201, created.text);
  const res = await patch(gizmosPath(ns, 'g1'), { spec: { ports: [{ name: 'b', port: 2 }], tags: ['y'], args: ['3'] } }, 'application/merge-patch+json');
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec, { ports: [{ name: 'b', port: 2 }], tags: ['y'], args: ['3'] });
});

test('a JSON patch adds to and removes from a list-map by index', async (t) => {
  const ns = await createNamespace(server, 'patch');
  const created = await server.request('POST', gizmosPath(ns), { body: gizmoConfig('g1', { ports: [{ name: 'a', port: 1 }] }) });
  t.is(created.status, 201, created.text);
  const res = await patch(
    gizmosPath(ns, 'g1'),
    [
      { op: 'test', path: '/spec/ports/0/name', value: 'a' },
      { op: 'add', path: '/spec/ports/-', value: { name: 'b', port: 2 } },
      { op: 'remove', path: '/spec/ports/0' },
    ],
    'application/json-patch+json',
  );
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec.ports, [{ name: 'b', port: 2 }]);
});

test('non-apply patches record an Update managedFields entry for their fieldManager', async (t) => {
  const ns = await createNamespace(server, 'patch');
  const created = await server.request('POST', gizmosPath(ns), { body: gizmoConfig('g1', { size: 1 }) });
  t.is(created.status, 201, created.text);
  const res = await server.request('PATCH', `${gizmosPath(ns, 'g1')}?fieldManager=patcher`, {
    body: [{ op: 'add', path: '/spec/args', value: ['x'] }],
    contentType: 'application/json-patch+json',
  });
  t.is(res.status, 200, res.text);
  const entry = (res.body.metadata.managedFields ?? []).find((e: { manager: string }) => e.manager === 'patcher');
  t.is(entry?.operation, 'Update');
  t.deepEqual(entry?.fieldsV1, { 'f:spec': { 'f:args': {} } }, 'an atomic list is owned as a leaf');
});

// ---------------------------------------------------------------------------------------------------------------
// force is for apply only

test('force is forbidden on JSON patch, merge patch and strategic merge patch', async (t) => {
  const { name, path } = await namespaceWith({ labels: { a: '1' } });
  const cases: [string, unknown][] = [
    ['application/json-patch+json', [{ op: 'add', path: '/metadata/labels/b', value: '2' }]],
    ['application/merge-patch+json', { metadata: { labels: { b: '2' } } }],
    [smp, { metadata: { labels: { b: '2' } } }],
  ];
  for (const [contentType, body] of cases) {
    const res = await server.request('PATCH', `${path}?force=true`, { body, contentType });
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    t.true(String(res.body?.message).includes('force: Forbidden: may not be specified for non-apply patch'), `${contentType}: ${res.body?.message}`);
  }
  const get = await server.request('GET', path);
  t.deepEqual(get.body.metadata.labels, nsLabels(name, { a: '1' }));
});

test('a JSON merge patch that is not an object: kube decodes it into a map first (400 "error decoding patch"), but under Ignore and for null it is "Invalid JSON Patch", and a list replaces the document', async (t) => {
  const { path } = await namespaceWith({});
  const patch = (body: string, query = '') => server.request('PATCH', `${path}${query}`, { rawBody: body, contentType: 'application/merge-patch+json' });
  for (const [body, type] of [['"x"', 'string'], ['5', 'number'], ['true', 'bool'], ['[{"a":1}]', 'array']]) {
    expectStatus(t, await patch(body!), { code: 400, reason: 'BadRequest', message: `error decoding patch: json: cannot unmarshal ${type} into Go value of type map[string]interface {}` });
  }
  expectStatus(t, await patch('null'), { code: 400, reason: 'BadRequest', message: 'Invalid JSON Patch' });
  for (const body of ['"x"', '5', 'true', 'null']) {
    expectStatus(t, await patch(body, '?fieldValidation=Ignore'), { code: 400, reason: 'BadRequest', message: 'Invalid JSON Patch' });
  }
  expectStatus(t, await patch('[{"a":1}]', '?fieldValidation=Ignore'), {
    code: 422,
    reason: 'Invalid',
    message: ' "" is invalid: patch: Invalid value: "[{\\"a\\":1}]": json: cannot unmarshal array into Go value of type map[string]interface {}',
  });
  t.is((await server.request('GET', path)).status, 200);
});
