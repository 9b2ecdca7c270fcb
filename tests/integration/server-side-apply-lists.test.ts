/**
 * How Server-Side Apply merges lists, following the CRD schema's markers (gizmos.ssa.example.com): list-maps keyed by
 * name merge item by item, sets merge by value, atomic lists are replaced whole and owned as one leaf. Also
 * metadata.finalizers (a set) on a built-in kind, namespaces.
 */
import test from 'ava';
import { createNamespace, expectStatus, installCrd, suffix, useTestServer } from '../helpers/test-server.js';
import { apply, entryOf, gizmoConfig, gizmosCrd, gizmosPath, itemKey, managedFields, owns, portNames, setKey } from '../helpers/ssa.js';

const server = useTestServer();

/** How kapi refuses a body the merge engine cannot take (kube-apiserver 1.32 answers a bare 500 for these). */
const refusedCodes = [400];

test.serial.before(async () => {
  await installCrd(server, gizmosCrd());
});

async function gizmoNamespace(): Promise<string> {
  return createNamespace(server, 'ssa-list');
}

// ---------------------------------------------------------------------------------------------------------------
// list-map

test('two managers applying different items of a list-map keep both; each owns its own item', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  const a = await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'a', port: 1 }] }), { manager: 'mgr1' });
  t.is(a.status, 201, a.text);
  const b = await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'b', port: 2 }] }), { manager: 'mgr2' });
  t.is(b.status, 200, b.text);
  t.deepEqual(portNames(b.body), ['a', 'b']);
  t.deepEqual(b.body.spec.ports.find((p: { name: string }) => p.name === 'a'), { name: 'a', port: 1 });
  t.deepEqual(entryOf(b.body, 'mgr1')?.fieldsV1, { 'f:spec': { 'f:ports': { [itemKey('a')]: { '.': {}, 'f:name': {}, 'f:port': {} } } } });
  t.deepEqual(entryOf(b.body, 'mgr2')?.fieldsV1, { 'f:spec': { 'f:ports': { [itemKey('b')]: { '.': {}, 'f:name': {}, 'f:port': {} } } } });
});

test('an applier dropping its list-map item removes only that item', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  t.is((await apply(server, path, gizmoConfig('g1', { size: 1, ports: [{ name: 'a', port: 1 }] }), { manager: 'mgr1' })).status, 201);
  t.is((await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'b', port: 2 }] }), { manager: 'mgr2' })).status, 200);
  const res = await apply(server, path, gizmoConfig('g1', { size: 1 }), { manager: 'mgr1' });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec.ports, [{ name: 'b', port: 2 }]);
  t.false(owns(entryOf(res.body, 'mgr1'), 'f:spec', 'f:ports'));
  t.true(owns(entryOf(res.body, 'mgr2'), 'f:spec', 'f:ports', itemKey('b')));
});

test('changing a field of another manager\'s list-map item conflicts at the item\'s field path', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  t.is((await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'a', port: 1 }] }), { manager: 'mgr1' })).status, 201);
  const res = await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'a', port: 9 }] }), { manager: 'mgr2' });
  expectStatus(t, res, { code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "mgr1": .spec.ports[name="a"].port' });
});

test('an applier changing a field of its own item keeps the other fields other managers set on it', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  t.is((await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'a', port: 1 }] }), { manager: 'mgr1' })).status, 201);
  const proto = await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'a', protocol: 'TCP' }] }), { manager: 'mgr2' });
  t.is(proto.status, 200, proto.text);
  t.deepEqual(proto.body.spec.ports, [{ name: 'a', port: 1, protocol: 'TCP' }]);
  const res = await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'a', port: 2 }] }), { manager: 'mgr1' });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec.ports, [{ name: 'a', port: 2, protocol: 'TCP' }]);
});

test('an applied list-map with duplicate keys is refused and nothing is stored', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  const res = await apply(server, path, gizmoConfig('g1', { ports: [{ name: 'a', port: 1 }, { name: 'a', port: 2 }] }));
  // kube-apiserver 1.32 answers 500 here (the typed-conversion error is not a Status); kapi answers 400.
  t.true(refusedCodes.includes(res.status), `refused with 400 (got ${res.status}: ${res.text.slice(0, 300)})`);
  t.regex(String(res.body?.message), /duplicate entries for key \[name="a"\]/);
  t.is((await server.request('GET', path)).status, 404);
});

test('an applied list-map item without its key is refused and nothing is stored', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  const res = await apply(server, path, gizmoConfig('g1', { ports: [{ port: 1 }] }));
  t.true(refusedCodes.includes(res.status), `refused with 400 (got ${res.status}: ${res.text.slice(0, 300)})`);
  t.regex(String(res.body?.message), /name/);
  t.is((await server.request('GET', path)).status, 404);
});

// ---------------------------------------------------------------------------------------------------------------
// set

test('set items applied by two managers merge by value; each manager owns its values', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  t.is((await apply(server, path, gizmoConfig('g1', { size: 1, tags: ['x', 'y'] }), { manager: 'mgr1' })).status, 201);
  const res = await apply(server, path, gizmoConfig('g1', { tags: ['y', 'z'] }), { manager: 'mgr2' });
  t.is(res.status, 200, res.text);
  t.deepEqual([...res.body.spec.tags].sort(), ['x', 'y', 'z']);
  t.deepEqual(entryOf(res.body, 'mgr1')?.fieldsV1, { 'f:spec': { 'f:size': {}, 'f:tags': { [setKey('x')]: {}, [setKey('y')]: {} } } });
  t.deepEqual(entryOf(res.body, 'mgr2')?.fieldsV1, { 'f:spec': { 'f:tags': { [setKey('y')]: {}, [setKey('z')]: {} } } });

  const drop = await apply(server, path, gizmoConfig('g1', { size: 1 }), { manager: 'mgr1' });
  t.is(drop.status, 200, drop.text);
  t.deepEqual([...drop.body.spec.tags].sort(), ['y', 'z'], 'x removed, y kept for mgr2');
});

test('an applied set with a duplicate value is refused', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  const res = await apply(server, path, gizmoConfig('g1', { tags: ['x', 'x'] }));
  t.true(refusedCodes.includes(res.status), `refused with 400 (got ${res.status}: ${res.text.slice(0, 300)})`);
  t.regex(String(res.body?.message), /duplicate/);
  t.is((await server.request('GET', path)).status, 404);
});

// ---------------------------------------------------------------------------------------------------------------
// atomic

test('an atomic list is replaced whole and owned as a leaf', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  t.is((await apply(server, path, gizmoConfig('g1', { args: ['a', 'b'] }), { manager: 'mgr1' })).status, 201);
  const res = await apply(server, path, gizmoConfig('g1', { args: ['c'] }), { manager: 'mgr1' });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec.args, ['c']);
  t.deepEqual(entryOf(res.body, 'mgr1')?.fieldsV1, { 'f:spec': { 'f:args': {} } });
});

test('another applier changing an atomic list conflicts on the whole list; with force it takes it over', async (t) => {
  const ns = await gizmoNamespace();
  const path = gizmosPath(ns, 'g1');
  t.is((await apply(server, path, gizmoConfig('g1', { size: 1, args: ['a', 'b'] }), { manager: 'mgr1' })).status, 201);
  const conflict = await apply(server, path, gizmoConfig('g1', { args: ['a', 'b', 'c'] }), { manager: 'mgr2' });
  expectStatus(t, conflict, { code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "mgr1": .spec.args' });
  const forced = await apply(server, path, gizmoConfig('g1', { args: ['a', 'b', 'c'] }), { manager: 'mgr2', force: true });
  t.is(forced.status, 200, forced.text);
  t.deepEqual(forced.body.spec.args, ['a', 'b', 'c']);
  t.deepEqual(entryOf(forced.body, 'mgr2')?.fieldsV1, { 'f:spec': { 'f:args': {} } });
  t.deepEqual(entryOf(forced.body, 'mgr1')?.fieldsV1, { 'f:spec': { 'f:size': {} } });
});

// ---------------------------------------------------------------------------------------------------------------
// A built-in kind: metadata of namespaces

test('apply creates a namespace and tracks its labels; finalizers merge as a set', async (t) => {
  const name = `ssa-ns-${suffix()}`;
  const path = `/api/v1/namespaces/${name}`;
  const created = await apply(server, path, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { team: 'a' } } }, { manager: 'mgr1' });
  t.is(created.status, 201, created.text);
  t.deepEqual(entryOf(created.body, 'mgr1')?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:team': {} } } });

  const f1 = await apply(server, path, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, finalizers: ['example.com/one'] } }, { manager: 'fin1' });
  t.is(f1.status, 200, f1.text);
  const f2 = await apply(server, path, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, finalizers: ['example.com/two'] } }, { manager: 'fin2' });
  t.is(f2.status, 200, f2.text);
  t.deepEqual([...f2.body.metadata.finalizers].sort(), ['example.com/one', 'example.com/two']);
  t.true(owns(entryOf(f2.body, 'fin1'), 'f:metadata', 'f:finalizers', setKey('example.com/one')), JSON.stringify(managedFields(f2.body)));
  t.true(owns(entryOf(f2.body, 'fin2'), 'f:metadata', 'f:finalizers', setKey('example.com/two')));
  t.is(f2.body.metadata.labels?.team, 'a', 'labels of mgr1 kept');

  // Release the finalizers so the namespace can go when the server does.
  for (const manager of ['fin1', 'fin2']) {
    const res = await apply(server, path, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { manager });
    t.is(res.status, 200, res.text);
  }
  const get = await server.request('GET', path);
  t.deepEqual(get.body.metadata.finalizers ?? [], []);
});
