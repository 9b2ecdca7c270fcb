/**
 * Garbage collection over HTTP: DELETE's propagationPolicy / orphanDependents set the `foregroundDeletion` / `orphan`
 * finalizers as kube-apiserver does, and the collector follows ownerReferences across resources (widgets, a CRD
 * installed later, a cluster-scoped custom kind, Namespaces): dependents of a gone owner are deleted, a foreground owner
 * waits for its blocking dependents, an orphaning owner lets its dependents go free. Outcomes are polled for.
 */
import test from 'ava';
import { gadgetsCrd } from '../helpers/gadgets-crd.js';
import { createNamespace, installCrd, useTestServer, widget, widgetsPath, type TestResponse } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const hold = 'example.com/hold';
const fleetsPath = (name = '') => `/apis/example.net/v1/fleets${name ? `/${name}` : ''}`;
const gadgetsPath = (ns: string, name = '') => `/apis/example.org/v1/namespaces/${ns}/gadgets${name ? `/${name}` : ''}`;

/** A cluster-scoped custom kind, to own objects of other kinds and scopes. */
const fleetsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'fleets.example.net' },
  spec: {
    group: 'example.net',
    scope: 'Cluster',
    names: { plural: 'fleets', singular: 'fleet', kind: 'Fleet' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

test.serial.before(async () => {
  await installCrd(server, fleetsCrd);
});

interface Meta {
  name: string;
  uid: string;
}

interface OwnerRefOptions {
  blockOwnerDeletion?: boolean;
  apiVersion?: string;
  kind?: string;
}

function ownerRef(owner: { apiVersion: string; kind: string; metadata: Meta }, opts: OwnerRefOptions = {}) {
  return {
    apiVersion: opts.apiVersion ?? owner.apiVersion,
    kind: opts.kind ?? owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    ...(opts.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: opts.blockOwnerDeletion } : {}),
  };
}

async function create(path: string, body: any): Promise<any> {
  const res = await server.request('POST', path, { body });
  if (res.status !== 201) throw new Error(`creating ${body.metadata.name} at ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A widget in `ns` with the given owners and finalizers. */
function createWidget(ns: string, name: string, owners: unknown[] = [], finalizers?: string[]): Promise<any> {
  const body = widget(name, finalizers ? { finalizers } : {});
  return create(widgetsPath(ns), { ...body, metadata: { ...body.metadata, ...(owners.length ? { ownerReferences: owners } : {}) } });
}

function createFleet(name: string, owners: unknown[] = []): Promise<any> {
  return create(fleetsPath(), { apiVersion: 'example.net/v1', kind: 'Fleet', metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}) } });
}

const get = (path: string) => server.request('GET', path);

/** Waits until GET `path` answers 404. */
async function gone(path: string, what = path): Promise<void> {
  await server.waitFor(async () => (await get(path)).status === 404, 10_000, `${what} to be gone`);
}

/** Waits until GET `path` answers an object for which `check` holds; returns it. */
async function until(path: string, check: (obj: any) => boolean, what: string): Promise<any> {
  return server.waitFor(async () => {
    const res = await get(path);
    return res.status === 200 && check(res.body) ? res.body : undefined;
  }, 10_000, what);
}

function unhold(path: string): Promise<TestResponse> {
  return server.request('PATCH', path, { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
}

test('Background (the default): the owner goes at once, then its dependents', async (t) => {
  const ns = await createNamespace(server, 'gc-bg');
  const owner = await createWidget(ns, 'owner');
  await createWidget(ns, 'dep1', [ownerRef(owner)]);
  await createWidget(ns, 'dep2', [ownerRef(owner, { blockOwnerDeletion: true })]);
  const unrelated = await createWidget(ns, 'unrelated');

  const del = await server.request('DELETE', widgetsPath(ns, 'owner'));
  t.is(del.status, 200);
  t.is(del.body.metadata.finalizers, undefined);
  t.is((await get(widgetsPath(ns, 'owner'))).status, 404, 'the owner is removed at once');

  await gone(widgetsPath(ns, 'dep1'));
  await gone(widgetsPath(ns, 'dep2'));
  t.is((await get(widgetsPath(ns, 'unrelated'))).body.metadata.uid, unrelated.metadata.uid);
});

test('Foreground: the owner stays with foregroundDeletion until no dependent with blockOwnerDeletion remains', async (t) => {
  const ns = await createNamespace(server, 'gc-fg');
  const owner = await createWidget(ns, 'owner');
  await createWidget(ns, 'blocking', [ownerRef(owner, { blockOwnerDeletion: true })], [hold]);
  await createWidget(ns, 'free', [ownerRef(owner)]);

  const del = await server.request('DELETE', `${widgetsPath(ns, 'owner')}?propagationPolicy=Foreground`);
  t.is(del.status, 200);
  t.deepEqual(del.body.metadata.finalizers, ['foregroundDeletion']);
  t.truthy(del.body.metadata.deletionTimestamp);

  // The dependents are deleted; the blocking one is kept by its own finalizer, and keeps the owner.
  await gone(widgetsPath(ns, 'free'));
  const blocking = await until(widgetsPath(ns, 'blocking'), (w) => Boolean(w.metadata.deletionTimestamp), 'the blocking dependent to be deleting');
  t.deepEqual(blocking.metadata.finalizers, [hold]);
  const kept = await get(widgetsPath(ns, 'owner'));
  t.is(kept.status, 200, 'the owner waits for its blocking dependent');
  t.deepEqual(kept.body.metadata.finalizers, ['foregroundDeletion']);

  t.is((await unhold(widgetsPath(ns, 'blocking'))).status, 200);
  await gone(widgetsPath(ns, 'blocking'));
  await gone(widgetsPath(ns, 'owner'), 'the owner once its blocking dependent is gone');
});

test('Foreground through a chain: a dependent with dependents of its own is deleted in the foreground too', async (t) => {
  const ns = await createNamespace(server, 'gc-chain');
  const owner = await createWidget(ns, 'owner');
  const middle = await createWidget(ns, 'middle', [ownerRef(owner, { blockOwnerDeletion: true })]);
  await createWidget(ns, 'leaf', [ownerRef(middle, { blockOwnerDeletion: true })], [hold]);

  t.is((await server.request('DELETE', `${widgetsPath(ns, 'owner')}?propagationPolicy=Foreground`)).status, 200);
  const waiting = await until(widgetsPath(ns, 'middle'), (w) => Boolean(w.metadata.deletionTimestamp), 'the middle widget to be deleting');
  t.deepEqual(waiting.metadata.finalizers, ['foregroundDeletion']);
  await until(widgetsPath(ns, 'leaf'), (w) => Boolean(w.metadata.deletionTimestamp), 'the leaf to be deleting');
  t.is((await get(widgetsPath(ns, 'owner'))).status, 200, 'the owner waits for the whole chain');

  await unhold(widgetsPath(ns, 'leaf'));
  await gone(widgetsPath(ns, 'middle'));
  await gone(widgetsPath(ns, 'owner'));
});

for (const [label, query, body] of [
  ['propagationPolicy=Orphan', '?propagationPolicy=Orphan', undefined],
  ['orphanDependents=true', '', { apiVersion: 'v1', kind: 'DeleteOptions', orphanDependents: true }],
] as const) {
  test(`Orphan (${label}): the dependents lose their reference to the owner and stay`, async (t) => {
    const ns = await createNamespace(server, 'gc-orphan');
    const owner = await createWidget(ns, 'owner');
    const other = await createWidget(ns, 'other');
    await createWidget(ns, 'dep', [ownerRef(owner, { blockOwnerDeletion: true }), ownerRef(other)]);
    await createWidget(ns, 'only', [ownerRef(owner)]);

    const del = await server.request('DELETE', `${widgetsPath(ns, 'owner')}${query}`, body ? { body } : {});
    t.is(del.status, 200);
    t.deepEqual(del.body.metadata.finalizers, ['orphan']);
    t.truthy(del.body.metadata.deletionTimestamp);

    await gone(widgetsPath(ns, 'owner'));
    const dep = await get(widgetsPath(ns, 'dep'));
    t.deepEqual(dep.body.metadata.ownerReferences, [ownerRef(other)], 'only the reference to the deleted owner is removed');
    const only = await get(widgetsPath(ns, 'only'));
    t.is(only.status, 200);
    t.is(only.body.metadata.ownerReferences, undefined);
  });
}

test('orphanDependents=false deletes in the background, and a pending deletion then answers 202', async (t) => {
  const ns = await createNamespace(server, 'gc-202');
  const owner = await createWidget(ns, 'owner', [], [hold]);
  await createWidget(ns, 'dep', [ownerRef(owner)]);
  const del = await server.request('DELETE', `${widgetsPath(ns, 'owner')}?orphanDependents=false`);
  t.is(del.status, 202);
  t.deepEqual(del.body.metadata.finalizers, [hold]);
  await unhold(widgetsPath(ns, 'owner'));
  await gone(widgetsPath(ns, 'dep'));
});

test('a later DELETE changes the policy of a deletion in progress, as kube-apiserver lets it', async (t) => {
  const ns = await createNamespace(server, 'gc-change');
  const owner = await createWidget(ns, 'owner', [], [hold]);
  await createWidget(ns, 'dep', [ownerRef(owner, { blockOwnerDeletion: true })], [hold]);

  const fg = await server.request('DELETE', `${widgetsPath(ns, 'owner')}?propagationPolicy=Foreground`);
  t.deepEqual(fg.body.metadata.finalizers, [hold, 'foregroundDeletion']);
  await until(widgetsPath(ns, 'dep'), (w) => Boolean(w.metadata.deletionTimestamp), 'the dependent to be deleting');

  // A DELETE without options keeps the policy; Orphan replaces it, the deletionTimestamp stays.
  const plain = await server.request('DELETE', widgetsPath(ns, 'owner'));
  t.deepEqual(plain.body.metadata.finalizers, [hold, 'foregroundDeletion']);
  const orphan = await server.request('DELETE', `${widgetsPath(ns, 'owner')}?propagationPolicy=Orphan`);
  t.is(orphan.status, 200);
  t.deepEqual(orphan.body.metadata.finalizers, [hold, 'orphan']);
  t.is(orphan.body.metadata.deletionTimestamp, fg.body.metadata.deletionTimestamp);

  const freed = await until(widgetsPath(ns, 'dep'), (w) => w.metadata.ownerReferences === undefined, 'the dependent to be orphaned');
  t.deepEqual(freed.metadata.finalizers, [hold]);
  const ownerNow = await until(widgetsPath(ns, 'owner'), (w) => !w.metadata.finalizers.includes('orphan'), 'the orphan finalizer to go');
  t.deepEqual(ownerNow.metadata.finalizers, [hold]);

  // Background on an owner held only by foregroundDeletion deletes it at once.
  const solo = await createWidget(ns, 'solo');
  await createWidget(ns, 'solo-dep', [ownerRef(solo, { blockOwnerDeletion: true })], [hold]);
  await server.request('DELETE', `${widgetsPath(ns, 'solo')}?propagationPolicy=Foreground`);
  await until(widgetsPath(ns, 'solo-dep'), (w) => Boolean(w.metadata.deletionTimestamp), 'solo-dep to be deleting');
  const bg = await server.request('DELETE', `${widgetsPath(ns, 'solo')}?propagationPolicy=Background`);
  t.is(bg.status, 200);
  t.is((await get(widgetsPath(ns, 'solo'))).status, 404);
});

test('dry-run deletes change nothing, whatever the policy', async (t) => {
  const ns = await createNamespace(server, 'gc-dry');
  const owner = await createWidget(ns, 'owner');
  await createWidget(ns, 'dep', [ownerRef(owner, { blockOwnerDeletion: true })]);
  for (const policy of ['Foreground', 'Orphan', 'Background']) {
    const res = await server.request('DELETE', `${widgetsPath(ns, 'owner')}?dryRun=All&propagationPolicy=${policy}`);
    t.is(res.status, 200, policy);
  }
  const fg = await server.request('DELETE', `${widgetsPath(ns, 'owner')}?dryRun=All&propagationPolicy=Foreground`);
  t.deepEqual(fg.body.metadata.finalizers, ['foregroundDeletion'], 'the answer shows what a real delete would store');
  const after = await get(widgetsPath(ns, 'owner'));
  t.is(after.body.metadata.resourceVersion, owner.metadata.resourceVersion);
  t.is(after.body.metadata.deletionTimestamp, undefined);

  // The collector has had its look (a dependent of a missing owner, created after, is gone): the dependent stays.
  await createWidget(ns, 'marker', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'missing', uid: '00000000-0000-0000-0000-000000000001' }]);
  await gone(widgetsPath(ns, 'marker'));
  const dep = await get(widgetsPath(ns, 'dep'));
  t.is(dep.status, 200);
  t.is(dep.body.metadata.deletionTimestamp, undefined);
});

test('a dependent whose owner is missing from the start, or has another uid, is deleted', async (t) => {
  const ns = await createNamespace(server, 'gc-missing');
  const owner = await createWidget(ns, 'owner');
  await createWidget(ns, 'never', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'nobody', uid: '00000000-0000-0000-0000-000000000002' }]);
  await createWidget(ns, 'wrong-uid', [{ ...ownerRef(owner), uid: '00000000-0000-0000-0000-000000000003' }]);
  const kept = await createWidget(ns, 'kept', [ownerRef(owner), { apiVersion: 'example.com/v1', kind: 'Widget', name: 'nobody', uid: '00000000-0000-0000-0000-000000000004' }]);
  await gone(widgetsPath(ns, 'never'));
  await gone(widgetsPath(ns, 'wrong-uid'));
  // One live owner keeps a dependent; the reference to the missing one is removed.
  const after = await until(widgetsPath(ns, 'kept'), (w) => w.metadata.ownerReferences?.length === 1, 'the dangling reference to go');
  t.is(after.metadata.uid, kept.metadata.uid);
  t.deepEqual(after.metadata.ownerReferences, [ownerRef(owner)]);
});

test('an owner in another namespace never matches: the dependent is deleted while the owner lives', async (t) => {
  const nsA = await createNamespace(server, 'gc-xns-a');
  const nsB = await createNamespace(server, 'gc-xns-b');
  const owner = await createWidget(nsA, 'owner');
  const sameNs = await createWidget(nsA, 'dep', [ownerRef(owner)]);
  await createWidget(nsB, 'dep', [ownerRef(owner)]);
  await gone(widgetsPath(nsB, 'dep'));
  t.is((await get(widgetsPath(nsA, 'owner'))).status, 200);
  t.is((await get(widgetsPath(nsA, 'dep'))).body.metadata.uid, sameNs.metadata.uid, 'the dependent in the owner’s namespace stays');
});

test('invalid or unresolvable references leave the dependent alone', async (t) => {
  const ns = await createNamespace(server, 'gc-invalid');
  const namespacedOwner = await createWidget(ns, 'owner');
  // A cluster-scoped dependent cannot have a namespaced owner; an owner of a kind kapi does not serve cannot be read.
  const invalid = await createFleet(`invalid-${ns}`, [ownerRef(namespacedOwner)]);
  const unserved = await createWidget(ns, 'unserved', [{ apiVersion: 'example.invalid/v1', kind: 'Nothing', name: 'x', uid: '00000000-0000-0000-0000-000000000005' }]);
  // Created after them: once these are collected, the collector has looked at the others.
  await createFleet(`marker-${ns}`, [{ apiVersion: 'example.net/v1', kind: 'Fleet', name: 'nobody', uid: '00000000-0000-0000-0000-000000000006' }]);
  await createWidget(ns, 'marker', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'nobody', uid: '00000000-0000-0000-0000-000000000007' }]);
  await gone(fleetsPath(`marker-${ns}`));
  await gone(widgetsPath(ns, 'marker'));

  await server.request('DELETE', widgetsPath(ns, 'owner'));
  // The deleted owner's dependents are looked at again; a marker created after shows the collector got that far.
  await createWidget(ns, 'marker2', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'nobody', uid: '00000000-0000-0000-0000-000000000008' }]);
  await gone(widgetsPath(ns, 'marker2'));
  t.is((await get(fleetsPath(`invalid-${ns}`))).body.metadata?.uid, invalid.metadata.uid);
  t.is((await get(widgetsPath(ns, 'unserved'))).body.metadata?.uid, unserved.metadata.uid);
  await server.request('DELETE', fleetsPath(`invalid-${ns}`));
});

test('a cluster-scoped custom resource owns a Namespace, widgets and gadgets of a CRD installed later', async (t) => {
  const fleet = await createFleet('fleet-owner');
  await installCrd(server, gadgetsCrd);
  const ns = await createNamespace(server, 'gc-fleet');
  const ownedNs = await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `owned-${ns}`, ownerReferences: [ownerRef(fleet)] } });
  await createWidget(ns, 'w', [ownerRef(fleet)]);
  await create(gadgetsPath(ns), { apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name: 'g', ownerReferences: [ownerRef(fleet)] }, spec: { replicas: 1 } });
  // A gadget owned by a widget: one CRD kind owning another.
  const owningWidget = await createWidget(ns, 'gadget-owner');
  await create(gadgetsPath(ns), { apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name: 'g2', ownerReferences: [ownerRef(owningWidget)] } });

  t.is((await server.request('DELETE', fleetsPath('fleet-owner'))).status, 200);
  await gone(`/api/v1/namespaces/${ownedNs.metadata.name}`, 'the owned namespace');
  await gone(widgetsPath(ns, 'w'));
  await gone(gadgetsPath(ns, 'g'));

  await server.request('DELETE', widgetsPath(ns, 'gadget-owner'));
  await gone(gadgetsPath(ns, 'g2'));
});

test('a Namespace deleted in the foreground waits for its dependents, wherever they are', async (t) => {
  const owner = await createNamespace(server, 'gc-ns-owner');
  const elsewhere = await createNamespace(server, 'gc-ns-other');
  const nsObject = (await get(`/api/v1/namespaces/${owner}`)).body;
  await createWidget(elsewhere, 'owned-by-ns', [ownerRef(nsObject, { blockOwnerDeletion: true })], [hold]);

  const del = await server.request('DELETE', `/api/v1/namespaces/${owner}?propagationPolicy=Foreground`);
  t.is(del.status, 200);
  t.deepEqual(del.body.metadata.finalizers, ['foregroundDeletion']);
  t.is(del.body.status.phase, 'Terminating');

  await until(widgetsPath(elsewhere, 'owned-by-ns'), (w) => Boolean(w.metadata.deletionTimestamp), 'the dependent to be deleting');
  t.is((await get(`/api/v1/namespaces/${owner}`)).status, 200, 'the namespace waits for its blocking dependent');
  await unhold(widgetsPath(elsewhere, 'owned-by-ns'));
  await gone(`/api/v1/namespaces/${owner}`);
});

test('owners of each other (a cycle) deleted in the foreground both go', async (t) => {
  const ns = await createNamespace(server, 'gc-cycle');
  const a = await createWidget(ns, 'a');
  const b = await createWidget(ns, 'b', [ownerRef(a, { blockOwnerDeletion: true })]);
  const patched = await server.request('PATCH', widgetsPath(ns, 'a'), {
    body: { metadata: { ownerReferences: [ownerRef(b, { blockOwnerDeletion: true })] } },
    contentType: 'application/merge-patch+json',
  });
  t.is(patched.status, 200);
  t.is((await server.request('DELETE', `${widgetsPath(ns, 'a')}?propagationPolicy=Foreground`)).status, 200);
  await gone(widgetsPath(ns, 'a'));
  await gone(widgetsPath(ns, 'b'));
});

test('an owner seen deleted stays known gone after its kind is no longer served (kube\'s absent-owner cache)', async (t) => {
  const crewsCrd = structuredClone(fleetsCrd);
  Object.assign(crewsCrd.metadata, { name: 'crews.example.net' });
  Object.assign(crewsCrd.spec, { names: { plural: 'crews', singular: 'crew', kind: 'Crew' } });
  await installCrd(server, crewsCrd);
  const crew = await create('/apis/example.net/v1/crews', { apiVersion: 'example.net/v1', kind: 'Crew', metadata: { name: 'crew' } });
  const ns = await createNamespace(server, 'gc-crd-gone');
  await createWidget(ns, 'member', [ownerRef(crew)]);

  // The crew goes with its CRD; its dependent follows.
  t.is((await server.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crews.example.net')).status, 200);
  await gone('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crews.example.net', 'the CRD');
  await gone(widgetsPath(ns, 'member'));

  // Crews are no longer served, but this crew was seen deleted: a new reference to it is dangling, not unresolvable.
  await createWidget(ns, 'late-member', [ownerRef(crew)]);
  await gone(widgetsPath(ns, 'late-member'));
});
