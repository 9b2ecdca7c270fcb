/**
 * Field ownership under Server-Side Apply on widgets: conflicts between appliers and how force resolves them, shared
 * ownership, removal of fields an applier no longer applies, ownership taken by updates (PATCH, PUT, POST), the status
 * subresource, and resetting managedFields.
 */
import test from 'ava';
import { createNamespace, expectStatus, useTestServer, widgetsPath } from '../helpers/test-server.js';
import { apply, entryOf, managedFields, managerSummary, owns, rfc3339, widgetConfig } from '../helpers/ssa.js';

const server = useTestServer({ widgetsCrd: true });

/** A namespace with widget w1 applied by mgr1 with `spec`. */
async function appliedWidget(spec: Record<string, unknown> = { color: 'red', replicas: 1 }): Promise<{ ns: string; path: string; obj: any }> {
  const ns = await createNamespace(server, 'ssa-own');
  const path = widgetsPath(ns, 'w1');
  const res = await apply(server, path, widgetConfig('w1', spec), { manager: 'mgr1' });
  if (res.status !== 201) throw new Error(`apply-create: ${res.status} ${res.text}`);
  return { ns, path, obj: res.body };
}

// ---------------------------------------------------------------------------------------------------------------
// Conflicts

test('a second applier changing a field the first one owns gets 409 Conflict naming the manager and the field', async (t) => {
  const { path, obj } = await appliedWidget({ color: 'red' });
  const res = await apply(server, path, widgetConfig('w1', { color: 'blue' }), { manager: 'mgr2' });
  // kube prints an Apply manager by name only; "using <apiVersion>" is added for Update managers.
  expectStatus(t, res, { code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "mgr1": .spec.color' });
  t.deepEqual(res.body?.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "mgr1"', field: '.spec.color' }]);
  const get = await server.request('GET', path);
  t.is(get.body.spec.color, 'red');
  t.is(get.body.metadata.resourceVersion, obj.metadata.resourceVersion, 'nothing written');
});

test('two conflicting fields are listed under the manager that owns them', async (t) => {
  const { path } = await appliedWidget({ color: 'red', replicas: 1 });
  const res = await apply(server, path, widgetConfig('w1', { color: 'blue', replicas: 2 }), { manager: 'mgr2' });
  expectStatus(t, res, { code: 409, reason: 'Conflict' });
  const message = String(res.body?.message);
  t.true(message.startsWith('Apply failed with 2 conflicts: conflicts with "mgr1":\n'), message);
  t.true(message.includes('- .spec.color'), message);
  t.true(message.includes('- .spec.replicas'), message);
  const fields = (res.body?.details?.causes ?? []).map((c: { field: string }) => c.field).sort();
  t.deepEqual(fields, ['.spec.color', '.spec.replicas']);
});

test('force=true overrides a conflict: the value changes and ownership moves to the forcing manager', async (t) => {
  const { path } = await appliedWidget({ color: 'red', replicas: 1 });
  const res = await apply(server, path, widgetConfig('w1', { color: 'blue' }), { manager: 'mgr2', force: true });
  t.is(res.status, 200, res.text);
  t.is(res.body.spec.color, 'blue');
  t.is(res.body.spec.replicas, 1);
  t.deepEqual(entryOf(res.body, 'mgr2', { operation: 'Apply' })?.fieldsV1, { 'f:spec': { 'f:color': {} } });
  const mgr1 = entryOf(res.body, 'mgr1', { operation: 'Apply' });
  t.false(owns(mgr1, 'f:spec', 'f:color'), 'mgr1 no longer owns color');
  t.true(owns(mgr1, 'f:spec', 'f:replicas'), 'mgr1 keeps replicas');
});

test('applying the same value as another manager shares ownership without a conflict', async (t) => {
  const { path } = await appliedWidget({ color: 'red', replicas: 1 });
  const res = await apply(server, path, widgetConfig('w1', { color: 'red' }), { manager: 'mgr2' });
  t.is(res.status, 200, res.text);
  t.true(owns(entryOf(res.body, 'mgr1'), 'f:spec', 'f:color'));
  t.true(owns(entryOf(res.body, 'mgr2'), 'f:spec', 'f:color'));
  t.deepEqual(managerSummary(res.body), ['mgr1:Apply', 'mgr2:Apply']);
  // A shared field cannot be changed by either sharer without force.
  const change = await apply(server, path, widgetConfig('w1', { color: 'green' }), { manager: 'mgr2' });
  expectStatus(t, change, { code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "mgr1": .spec.color' });
});

// ---------------------------------------------------------------------------------------------------------------
// Removal

test('a field the applier stops applying is removed when nobody else owns it', async (t) => {
  const { path } = await appliedWidget({ color: 'red', replicas: 3 });
  const res = await apply(server, path, widgetConfig('w1', { color: 'red' }));
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec, { color: 'red' });
  t.deepEqual(entryOf(res.body, 'mgr1')?.fieldsV1, { 'f:spec': { 'f:color': {} } });
});

test('a field the applier stops applying stays when another applier owns it too', async (t) => {
  const { path } = await appliedWidget({ color: 'red', replicas: 3 });
  const shared = await apply(server, path, widgetConfig('w1', { replicas: 3 }), { manager: 'mgr2' });
  t.is(shared.status, 200, shared.text);
  const res = await apply(server, path, widgetConfig('w1', { color: 'red' }));
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec, { color: 'red', replicas: 3 });
  t.false(owns(entryOf(res.body, 'mgr1'), 'f:spec', 'f:replicas'));
  t.true(owns(entryOf(res.body, 'mgr2'), 'f:spec', 'f:replicas'));
});

// ---------------------------------------------------------------------------------------------------------------
// Ownership taken by updates

test('a merge patch with fieldManager takes ownership as an Update entry; the applier then conflicts with it', async (t) => {
  const { path } = await appliedWidget({ color: 'red', replicas: 1 });
  const patch = await server.request('PATCH', `${path}?fieldManager=editor`, { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
  t.is(patch.status, 200, patch.text);
  const editor = entryOf(patch.body, 'editor');
  t.is(editor?.operation, 'Update');
  t.is(editor?.apiVersion, 'example.com/v1');
  t.is(editor?.fieldsType, 'FieldsV1');
  t.regex(String(editor?.time), rfc3339);
  t.deepEqual(editor?.fieldsV1, { 'f:spec': { 'f:color': {} } });
  t.is(editor?.subresource, undefined);
  const mgr1 = entryOf(patch.body, 'mgr1', { operation: 'Apply' });
  t.false(owns(mgr1, 'f:spec', 'f:color'), 'the applier lost color');
  t.true(owns(mgr1, 'f:spec', 'f:replicas'));

  const reapply = await apply(server, path, widgetConfig('w1', { color: 'green', replicas: 1 }));
  expectStatus(t, reapply, { code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "editor" using example.com/v1: .spec.color' });
  t.deepEqual(reapply.body?.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "editor" using example.com/v1', field: '.spec.color' }]);
});

test('a PUT without fieldManager is recorded under the User-Agent prefix', async (t) => {
  const { path } = await appliedWidget({ color: 'red' });
  const current = (await server.request('GET', path)).body;
  const res = await server.request('PUT', path, {
    body: { ...current, spec: { ...current.spec, color: 'blue' } },
    headers: { 'user-agent': 'my-tool/1.0 (x)' },
  });
  t.is(res.status, 200, res.text);
  const entry = entryOf(res.body, 'my-tool');
  t.is(entry?.operation, 'Update', JSON.stringify(managedFields(res.body)));
  t.deepEqual(entry?.fieldsV1, { 'f:spec': { 'f:color': {} } });
  t.false(owns(entryOf(res.body, 'mgr1'), 'f:spec', 'f:color'));
});

test('POST with fieldManager records an Update entry with "." for the maps it created', async (t) => {
  const ns = await createNamespace(server, 'ssa-own');
  const res = await server.request('POST', `${widgetsPath(ns)}?fieldManager=creator`, {
    body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', labels: { app: 'x' } }, spec: { color: 'red' } },
  });
  t.is(res.status, 201, res.text);
  const entries = managedFields(res.body);
  t.is(entries.length, 1, JSON.stringify(entries));
  const { time, ...entry } = entries[0]!;
  t.regex(String(time), rfc3339);
  t.deepEqual(entry, {
    manager: 'creator',
    operation: 'Update',
    apiVersion: 'example.com/v1',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { '.': {}, 'f:color': {} } },
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Status subresource

test('apply to the status subresource is recorded with subresource "status" and does not touch spec', async (t) => {
  const { path } = await appliedWidget({ color: 'red' });
  const res = await apply(server, `${path}/status`, widgetConfig('w1', undefined, { status: { ready: true } }), { manager: 'controller' });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.status, { ready: true });
  t.is(res.body.spec.color, 'red');
  const controller = entryOf(res.body, 'controller', { subresource: 'status' });
  t.is(controller?.operation, 'Apply', JSON.stringify(managedFields(res.body)));
  t.deepEqual(controller?.fieldsV1, { 'f:status': { 'f:ready': {} } });
  t.deepEqual(managerSummary(res.body), ['controller:Apply:status', 'mgr1:Apply']);
});

test('main-resource applies neither remove nor change status owned through the status subresource', async (t) => {
  const { path } = await appliedWidget({ color: 'red' });
  const status = await apply(server, `${path}/status`, widgetConfig('w1', undefined, { status: { ready: true } }), { manager: 'controller' });
  t.is(status.status, 200, status.text);

  const withoutStatus = await apply(server, path, widgetConfig('w1', { color: 'blue' }));
  t.is(withoutStatus.status, 200, withoutStatus.text);
  t.deepEqual(withoutStatus.body.status, { ready: true }, 'status left intact');
  t.is(withoutStatus.body.spec.color, 'blue');

  const withStatus = await apply(server, path, widgetConfig('w1', { color: 'blue' }, { status: { ready: false } }));
  t.is(withStatus.status, 200, withStatus.text);
  t.deepEqual(withStatus.body.status, { ready: true }, 'status not changed through the main resource');
  t.false(owns(entryOf(withStatus.body, 'mgr1'), 'f:status'), 'the main-resource applier does not own status');
  t.true(owns(entryOf(withStatus.body, 'controller', { subresource: 'status' }), 'f:status', 'f:ready'));
});

// ---------------------------------------------------------------------------------------------------------------
// Resetting managedFields

test('a JSON patch replacing managedFields with [{}] strips them', async (t) => {
  const { path } = await appliedWidget({ color: 'red' });
  const res = await server.request('PATCH', path, {
    body: [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }],
    contentType: 'application/json-patch+json',
  });
  t.is(res.status, 200, res.text);
  t.is(res.body.metadata.managedFields, undefined);
  const get = await server.request('GET', path);
  t.is(get.body.metadata.managedFields, undefined);
  t.is(get.body.spec.color, 'red', 'other fields untouched');
});

test('a merge patch replacing managedFields with [{}] strips them', async (t) => {
  const { path } = await appliedWidget({ color: 'red' });
  const res = await server.request('PATCH', path, { body: { metadata: { managedFields: [{}] } }, contentType: 'application/merge-patch+json' });
  t.is(res.status, 200, res.text);
  t.is(res.body.metadata.managedFields, undefined);
});

test('after a reset, updates are not tracked until the next apply', async (t) => {
  // kube's field manager skips tracking updates of an existing object that has no managedFields.
  const { path } = await appliedWidget({ color: 'red' });
  const reset = await server.request('PATCH', path, { body: [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }], contentType: 'application/json-patch+json' });
  t.is(reset.status, 200, reset.text);
  const patch = await server.request('PATCH', `${path}?fieldManager=editor`, { body: { spec: { replicas: 2 } }, contentType: 'application/merge-patch+json' });
  t.is(patch.status, 200, patch.text);
  t.is(patch.body.metadata.managedFields, undefined);
  const reapply = await apply(server, path, widgetConfig('w1', { color: 'red' }));
  t.is(reapply.status, 200, reapply.text);
  // The first apply to an object without managedFields hands what is already there to "before-first-apply", as kube does.
  t.deepEqual(managerSummary(reapply.body).sort(), ['before-first-apply:Update', 'mgr1:Apply']);
});

test('a JSON patch replacing managedFields with an empty list also resets them (as kube does)', async (t) => {
  // The docs say an empty list does not reset; kube-apiserver's field manager treats a non-nil empty list as a reset
  // (isResetManagedFields; integration test TestClearManagedFieldsWithUpdateEmptyList).
  const { path } = await appliedWidget({ color: 'red' });
  const res = await server.request('PATCH', path, {
    body: [{ op: 'replace', path: '/metadata/managedFields', value: [] }],
    contentType: 'application/json-patch+json',
  });
  t.is(res.status, 200, res.text);
  t.is(res.body.metadata.managedFields, undefined);
});

test('a PUT without managedFields keeps the stored ones', async (t) => {
  const { path } = await appliedWidget({ color: 'red' });
  const current = (await server.request('GET', path)).body;
  const { managedFields: _dropped, ...metadata } = current.metadata;
  const res = await server.request('PUT', `${path}?fieldManager=editor`, { body: { ...current, metadata, spec: { color: 'red', replicas: 5 } } });
  t.is(res.status, 200, res.text);
  t.true(owns(entryOf(res.body, 'mgr1'), 'f:spec', 'f:color'), 'mgr1 entry kept');
  t.true(owns(entryOf(res.body, 'editor'), 'f:spec', 'f:replicas'));
});
