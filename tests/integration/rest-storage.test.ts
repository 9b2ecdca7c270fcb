// Resources served from their own RestStorage (resourceModule), over HTTP: what kubectl cannot show. Discovery lists
// exactly the verbs a storage implements, any other is kube's 405; kapi filters lists the storage did not filter;
// admission and schema validation run before the storage is called; dry-run reaches it as such; watches are framed
// by kapi, pass BOOKMARKs only when asked, and end the storage's stream when the client goes.
import test from 'ava';
import { defineAdmissionPlugin, errors, resourceModule, Tokens, type KubeObject, type Module, type RestContext, type RestStorage, type RestWatchEvent } from '../../index.js';
import { expectStatus, useTestServer } from '../helpers/test-server.js';

const group = 'storage.example.com';
const base = `/apis/${group}/v1`;

/** A read-only storage (get and list) that leaves selectors to kapi. */
const readings: RestStorage = {
  async get(_ctx, name) {
    const found = readingObjects.find((r) => r.metadata!.name === name);
    if (!found) throw errors.notFound({ group, resource: 'readings', name });
    return found;
  },
  async list() {
    return { items: readingObjects, resourceVersion: '7' };
  },
};
const readingObjects: KubeObject[] = [
  { metadata: { name: 'r1', labels: { room: 'kitchen' } }, value: 1 },
  { metadata: { name: 'r2', labels: { room: 'hall' } }, value: 2 },
];

/** A storage that says it applied the selectors (it did not: kapi must trust it). */
const prefiltered: RestStorage = {
  async list() {
    return { items: readingObjects, selectorsApplied: true };
  },
};

/** Gizmos in a map, with every capability; records what it was asked. */
const gizmos = new Map<string, KubeObject>();
const calls: { op: string; dryRun: boolean; object?: KubeObject }[] = [];
let revision = 0;
let watchAborted = false;
const key = (ctx: RestContext, name: string) => `${ctx.namespace}/${name}`;
const gizmoStorage: RestStorage = {
  async get(ctx, name) {
    const found = gizmos.get(key(ctx, name));
    if (!found) throw errors.notFound({ group, resource: 'gizmos', name });
    return structuredClone(found);
  },
  async list(ctx) {
    return { items: [...gizmos.values()].filter((g) => !ctx.namespace || g.metadata!.namespace === ctx.namespace), resourceVersion: String(revision) };
  },
  async create(ctx, object) {
    calls.push({ op: 'create', dryRun: ctx.dryRun, object });
    if (gizmos.has(key(ctx, object.metadata!.name!))) throw errors.alreadyExists({ group, resource: 'gizmos', name: object.metadata!.name! });
    if (ctx.dryRun) return object;
    const stored = { ...object, metadata: { ...object.metadata, resourceVersion: String(++revision) } };
    gizmos.set(key(ctx, object.metadata!.name!), stored);
    return stored;
  },
  async update(ctx, name, update) {
    const old = await gizmoStorage.get!(ctx, name);
    const next = await update(old);
    calls.push({ op: 'update', dryRun: ctx.dryRun, object: next });
    if (ctx.dryRun) return next;
    const stored = { ...next, metadata: { ...next.metadata, resourceVersion: String(++revision) } };
    gizmos.set(key(ctx, name), stored);
    return stored;
  },
  async delete(ctx, name, admit) {
    const old = await gizmoStorage.get!(ctx, name);
    await admit(old);
    calls.push({ op: 'delete', dryRun: ctx.dryRun });
    if (!ctx.dryRun) gizmos.delete(key(ctx, name));
    return old;
  },
  async *watch(ctx): AsyncIterable<RestWatchEvent> {
    const object = (name: string, color: string, rv: string) => ({ metadata: { name, namespace: ctx.namespace, labels: { color }, resourceVersion: rv } });
    yield { type: 'ADDED', object: object('w1', 'red', '1') };
    yield { type: 'ADDED', object: object('w2', 'blue', '2') };
    yield { type: 'BOOKMARK', object: { metadata: { resourceVersion: '2' } } };
    yield { type: 'MODIFIED', object: object('w1', 'red', '3') };
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    watchAborted = true;
  },
};

/** gizmos/<name>/size: a subresource of its own kind, read and written. */
const sizeStorage: RestStorage = {
  kind: { group, version: 'v1', kind: 'GizmoSize' },
  async get(ctx, name) {
    const gizmo = await gizmoStorage.get!(ctx, name);
    return { metadata: { name }, size: (gizmo.spec as { size?: number } | undefined)?.size ?? 0 };
  },
  async update(ctx, name, update) {
    const next = await update(await sizeStorage.get!(ctx, name));
    calls.push({ op: 'size', dryRun: ctx.dryRun, object: next });
    return next;
  },
};

const gizmoSchema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { size: { type: 'integer', maximum: 10 }, color: { type: 'string' } } } },
};

const labelGizmos = defineAdmissionPlugin({
  name: 'LabelGizmos',
  operations: ['CREATE'],
  rules: [{ apiGroups: [group], resources: ['gizmos'] }],
  sideEffects: 'None',
  admit({ object }) {
    object.metadata = { ...object.metadata, labels: { ...object.metadata?.labels, admitted: 'yes' } };
  },
});
const refuseForbidden = defineAdmissionPlugin({
  name: 'RefuseForbidden',
  operations: ['CREATE'],
  rules: [{ apiGroups: [group], resources: ['gizmos'] }],
  sideEffects: 'None',
  validate({ object }) {
    if (object.metadata?.name === 'forbidden') throw errors.forbidden({ group, resource: 'gizmos', name: 'forbidden' }, 'not this one');
  },
});

const modules: Module[] = [
  resourceModule({ group, versions: ['v1'], kind: 'Reading', plural: 'readings', scope: 'Cluster', storage: readings }),
  resourceModule({ group, versions: ['v1'], kind: 'Prefiltered', plural: 'prefiltereds', scope: 'Cluster', storage: prefiltered }),
  resourceModule({ group, versions: ['v1'], kind: 'Gizmo', plural: 'gizmos', scope: 'Namespaced', schema: gizmoSchema, storage: gizmoStorage, subresources: { size: sizeStorage } }),
  (c) => {
    for (const p of [labelGizmos, refuseForbidden]) c.register(Tokens.AdmissionPlugin, { useValue: p });
  },
];
const server = useTestServer({ storage: 'memory', modules, config: { watchCache: { bookmarkIntervalMs: 200 } } });
const gizmosPath = (name = '') => `${base}/namespaces/default/gizmos${name ? `/${name}` : ''}`;
const gizmo = (name: string, spec: Record<string, unknown> = { size: 1 }) => ({ apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name }, spec });

test('discovery lists exactly the verbs each storage implements, and its subresources with their kinds', async (t) => {
  const res = await server.request('GET', base);
  t.is(res.status, 200, res.text);
  const verbs = Object.fromEntries(res.body.resources.map((r: { name: string; kind: string; verbs: string[] }) => [r.name, [r.kind, r.verbs]]));
  t.deepEqual(verbs, {
    readings: ['Reading', ['get', 'list']],
    prefiltereds: ['Prefiltered', ['list']],
    gizmos: ['Gizmo', ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']],
    'gizmos/size': ['GizmoSize', ['get', 'patch', 'update']],
  });
});

test('a verb the storage lacks is kube 405 MethodNotAllowed; an unknown subresource is 404', async (t) => {
  const refused = [
    await server.request('POST', `${base}/readings`, { body: { metadata: { name: 'r3' } } }),
    await server.request('PUT', `${base}/readings/r1`, { body: { metadata: { name: 'r1' } } }),
    await server.request('DELETE', `${base}/readings/r1`),
    await server.request('GET', `${base}/prefiltereds/p1`),
  ];
  for (const res of refused) expectStatus(t, res, { code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' });
  // A watch of a storage that lists but cannot watch is refused by kube's list handler itself.
  const watch = await server.request('GET', `${base}/readings?watch=true`);
  expectStatus(t, watch, { code: 405, reason: 'MethodNotAllowed', message: `watch is not supported on resources of kind "readings.${group}"` });
  t.deepEqual(watch.body.details, { group, kind: 'readings' });
  expectStatus(t, await server.request('GET', `${base}/readings/r1/status`), { code: 404, reason: 'NotFound' });
  expectStatus(t, await server.request('GET', `${base}/readings/r9`), { code: 404, reason: 'NotFound', message: `readings.${group} "r9" not found` });
});

test('kapi filters the list of a storage that does not apply selectors, and trusts one that says it did', async (t) => {
  const byLabel = await server.request('GET', `${base}/readings?labelSelector=room%3Dkitchen`);
  t.is(byLabel.status, 200, byLabel.text);
  t.deepEqual(byLabel.body.items.map((o: KubeObject) => o.metadata!.name), ['r1']);
  t.like(byLabel.body, { apiVersion: `${group}/v1`, kind: 'ReadingList', metadata: { resourceVersion: '7' } });
  const byField = await server.request('GET', `${base}/readings?fieldSelector=metadata.name%3Dr2`);
  t.deepEqual(byField.body.items.map((o: KubeObject) => [o.kind, o.metadata!.name]), [['Reading', 'r2']]);
  const badField = await server.request('GET', `${base}/readings?fieldSelector=value%3D1`);
  expectStatus(t, badField, { code: 400, reason: 'BadRequest' });
  const trusted = await server.request('GET', `${base}/prefiltereds?labelSelector=room%3Dkitchen`);
  t.deepEqual(trusted.body.items.map((o: KubeObject) => o.metadata!.name), ['r1', 'r2']);
});

test('a list from a storage renders as a Table and as PartialObjectMetadataList', async (t) => {
  const tableRes = await server.request('GET', `${base}/readings`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.is(tableRes.status, 200, tableRes.text);
  t.is(tableRes.body.kind, 'Table');
  t.deepEqual(tableRes.body.rows.map((r: { cells: unknown[] }) => r.cells[0]), ['r1', 'r2']);
  const meta = await server.request('GET', `${base}/readings`, { headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' } });
  t.is(meta.body.kind, 'PartialObjectMetadataList');
  t.deepEqual(meta.body.items[0], { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'r1', labels: { room: 'kitchen' } } });
});

test.serial('admission runs before the storage: a mutating plugin changes what it stores, a refusal never reaches it', async (t) => {
  calls.length = 0;
  const created = await server.request('POST', gizmosPath(), { body: gizmo('g1') });
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body.metadata.labels, { admitted: 'yes' });
  t.is(created.body.metadata.resourceVersion, String(revision));
  t.truthy(created.body.metadata.uid);
  t.deepEqual(calls.map((c) => [c.op, c.object?.metadata?.labels]), [['create', { admitted: 'yes' }]]);

  const refused = await server.request('POST', gizmosPath(), { body: gizmo('forbidden') });
  expectStatus(t, refused, { code: 403, reason: 'Forbidden' });
  t.is(calls.length, 1, 'the storage was not called');
});

test.serial('a schema violation is kube 422 before the storage is called', async (t) => {
  calls.length = 0;
  const res = await server.request('POST', gizmosPath(), { body: gizmo('big', { size: 11 }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `Gizmo.${group} "big" is invalid: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10` });
  t.deepEqual(calls, []);
});

test.serial('dry-run create reaches the storage as dry-run and leaves nothing stored', async (t) => {
  calls.length = 0;
  const res = await server.request('POST', `${gizmosPath()}?dryRun=All`, { body: gizmo('dry') });
  t.is(res.status, 201, res.text);
  t.is(res.body.metadata.name, 'dry');
  t.deepEqual(calls.map((c) => [c.op, c.dryRun]), [['create', true]]);
  expectStatus(t, await server.request('GET', gizmosPath('dry')), { code: 404, reason: 'NotFound' });
});

test.serial('PUT with a stale resourceVersion is kube 409; merge and apply patches are applied to the stored object; delete returns it', async (t) => {
  const created = await server.request('POST', gizmosPath(), { body: gizmo('g2') });
  t.is(created.status, 201, created.text);
  const patched = await server.request('PATCH', `${gizmosPath('g2')}?fieldManager=patcher`, { body: { spec: { color: 'red' } }, contentType: 'application/merge-patch+json' });
  t.is(patched.status, 200, patched.text);
  t.deepEqual(patched.body.spec, { size: 1, color: 'red' });
  const apply = await server.request('PATCH', `${gizmosPath('g2')}?fieldManager=me`, { body: gizmo('g2', { color: 'blue' }), contentType: 'application/apply-patch+yaml' });
  expectStatus(t, apply, {
    code: 409,
    reason: 'Conflict',
    message: 'Apply failed with 1 conflict: conflict with "patcher" using storage.example.com/v1: .spec.color',
  });
  const forced = await server.request('PATCH', `${gizmosPath('g2')}?fieldManager=me&force=true`, { body: gizmo('g2', { color: 'blue' }), contentType: 'application/apply-patch+yaml' });
  t.is(forced.status, 200, forced.text);
  t.deepEqual(forced.body.spec, { size: 1, color: 'blue' });
  t.true(forced.body.metadata.managedFields.some((e: { manager: string; operation: string }) => e.manager === 'me' && e.operation === 'Apply'));
  const applyCreated = await server.request('PATCH', `${gizmosPath('g2-applied')}?fieldManager=me`, { body: gizmo('g2-applied'), contentType: 'application/apply-patch+yaml' });
  t.is(applyCreated.status, 201, applyCreated.text);
  t.deepEqual(applyCreated.body.metadata.labels, { admitted: 'yes' });
  const stale = await server.request('PUT', gizmosPath('g2'), { body: created.body });
  expectStatus(t, stale, {
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on gizmos.${group} "g2": the object has been modified; please apply your changes to the latest version and try again`,
  });
  const put = await server.request('PUT', gizmosPath('g2'), { body: { ...forced.body, spec: { size: 2 } } });
  t.is(put.status, 200, put.text);
  t.deepEqual(put.body.spec, { size: 2 });
  t.is(put.body.metadata.generation, 4);
  const deleted = await server.request('DELETE', gizmosPath('g2'));
  t.is(deleted.status, 200, deleted.text);
  t.is(deleted.body.metadata.name, 'g2');
  expectStatus(t, await server.request('GET', gizmosPath('g2')), { code: 404, reason: 'NotFound' });
});

test.serial('deletecollection lists and deletes the selected objects through delete admission; dry-run deletes nothing', async (t) => {
  for (const [name, labels] of [['dc1', { batch: 'x' }], ['dc2', { batch: 'x' }], ['dc3', { batch: 'y' }]] as const) {
    const res = await server.request('POST', gizmosPath(), { body: { ...gizmo(name), metadata: { name, labels } } });
    t.is(res.status, 201, res.text);
  }
  const dry = await server.request('DELETE', `${gizmosPath()}?labelSelector=batch%3Dx&dryRun=All`);
  t.is(dry.status, 200, dry.text);
  t.deepEqual(dry.body.items.map((o: KubeObject) => o.metadata!.name).sort(), ['dc1', 'dc2']);
  t.is((await server.request('GET', gizmosPath('dc1'))).status, 200);
  const res = await server.request('DELETE', `${gizmosPath()}?labelSelector=batch%3Dx`);
  t.is(res.status, 200, res.text);
  t.like(res.body, { apiVersion: `${group}/v1`, kind: 'GizmoList' });
  t.deepEqual(res.body.items.map((o: KubeObject) => o.metadata!.name).sort(), ['dc1', 'dc2']);
  expectStatus(t, await server.request('GET', gizmosPath('dc1')), { code: 404, reason: 'NotFound' });
  expectStatus(t, await server.request('GET', gizmosPath('dc2')), { code: 404, reason: 'NotFound' });
  t.is((await server.request('GET', gizmosPath('dc3'))).status, 200);
  t.is((await server.request('DELETE', gizmosPath('dc3'))).status, 200);
});

test.serial('a subresource of its own kind: GET answers with it, PUT hands the storage the admitted body', async (t) => {
  t.is((await server.request('POST', gizmosPath(), { body: gizmo('g3', { size: 4 }) })).status, 201);
  const size = await server.request('GET', `${gizmosPath('g3')}/size`);
  t.is(size.status, 200, size.text);
  t.deepEqual(size.body, { apiVersion: `${group}/v1`, kind: 'GizmoSize', metadata: { name: 'g3' }, size: 4 });
  calls.length = 0;
  const put = await server.request('PUT', `${gizmosPath('g3')}/size`, { body: { metadata: { name: 'g3' }, size: 5 } });
  t.is(put.status, 200, put.text);
  t.deepEqual(put.body, { apiVersion: `${group}/v1`, kind: 'GizmoSize', metadata: { name: 'g3' }, size: 5 });
  t.deepEqual(calls.map((c) => c.op), ['size']);
  const wrongKind = await server.request('PUT', `${gizmosPath('g3')}/size`, { body: { kind: 'Gizmo', metadata: { name: 'g3' } } });
  expectStatus(t, wrongKind, { code: 400, reason: 'BadRequest', message: 'the kind in the data (Gizmo) does not match the expected kind (GizmoSize)' });
});

test('a watch is framed by kapi and filtered by selectors; BOOKMARKs only when asked; the storage stream ends with the client', async (t) => {
  const plain = await server.watch(`${gizmosPath()}?watch=true&resourceVersion=1&labelSelector=color%3Dred`);
  t.is(plain.status, 200);
  t.is(plain.headers['content-type'], 'application/json');
  const first = await plain.next();
  t.is(first.type, 'ADDED');
  t.like(first.object, { apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name: 'w1' } });
  const second = await plain.next();
  t.is(second.type, 'MODIFIED', 'w2 (blue) and the unasked BOOKMARK are left out');
  t.is(second.object.metadata.resourceVersion, '3');
  plain.close();
  await server.waitFor(() => watchAborted, 5000, 'the storage sees the client go');

  const withBookmarks = await server.watch(`${gizmosPath()}?watch=true&resourceVersion=1&allowWatchBookmarks=true`);
  const types = [await withBookmarks.next(), await withBookmarks.next(), await withBookmarks.next()].map((e) => e.type);
  t.deepEqual(types, ['ADDED', 'ADDED', 'BOOKMARK']);
  t.deepEqual(withBookmarks.events[2]!.object, { kind: 'Gizmo', apiVersion: `${group}/v1`, metadata: { resourceVersion: '2' } });
  withBookmarks.close();
});

test.serial('a watch from no resourceVersion starts with the storage\'s list as ADDED events, then a bookmark when allowed', async (t) => {
  const created = await server.request('POST', gizmosPath(), { body: { ...gizmo('listed'), metadata: { name: 'listed', labels: { set: 'initial' } } } });
  t.is(created.status, 201, created.text);
  const watch = await server.watch(`${gizmosPath()}?watch=true&allowWatchBookmarks=true&labelSelector=set%3Dinitial`);
  t.like(await watch.next(), { type: 'ADDED', object: { kind: 'Gizmo', metadata: { name: 'listed', resourceVersion: created.body.metadata.resourceVersion } } });
  const bookmark = await watch.next();
  t.is(bookmark.type, 'BOOKMARK');
  t.is(bookmark.object.metadata.annotations, undefined, 'only a watch-list marks the end of its initial events');
  watch.close();
  t.is((await server.request('DELETE', gizmosPath('listed'))).status, 200);
});

test('a watch that allows bookmarks gets one per interval with the latest resourceVersion, filtered-out events included', async (t) => {
  const blue = await server.watch(`${gizmosPath()}?watch=true&resourceVersion=1&allowWatchBookmarks=true&labelSelector=color%3Dblue`);
  t.like(await blue.next(), { type: 'ADDED', object: { metadata: { name: 'w2', resourceVersion: '2' } } });
  t.like(await blue.next(), { type: 'BOOKMARK', object: { metadata: { resourceVersion: '2' } } }); // the storage's own
  // w1's MODIFIED at resourceVersion 3 is not for this watch; the next bookmark says it is past it.
  t.like(await blue.next(3000), { type: 'BOOKMARK', object: { metadata: { resourceVersion: '3' } } });
  blue.close();
});
