/**
 * Server-Side Apply requests (PATCH with Content-Type application/apply-patch+yaml) on widgets: create and re-apply,
 * the PatchOptions checks, the bodies an apply refuses, and dry runs. Ownership and conflicts are in
 * server-side-apply-ownership.test.ts, list merging in server-side-apply-lists.test.ts.
 */
import test, { type ExecutionContext } from 'ava';
import { createNamespace, createWidget, expectStatus, useTestServer, widgetsPath, type TestResponse } from '../helpers/test-server.js';
import { apply, entryOf, managedFields, rfc3339, widgetConfig } from '../helpers/ssa.js';

const server = useTestServer({ widgetsCrd: true });

/** Asserts that GET of the widget answers 404: a refused apply-create stored nothing. */
async function assertAbsent(t: ExecutionContext, ns: string, name: string): Promise<void> {
  const get = await server.request('GET', widgetsPath(ns, name));
  t.is(get.status, 404, `nothing stored for ${name} (GET: ${get.status} ${get.text.slice(0, 200)})`);
}

/** Asserts a 422 Invalid about PatchOptions.meta.k8s.io whose message includes `fragment`. */
function expectInvalidPatchOptions(t: ExecutionContext, res: TestResponse, fragment: string): void {
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.true(String(res.body?.message).includes(fragment), `message ${JSON.stringify(res.body?.message)} includes ${JSON.stringify(fragment)}`);
  t.is(res.body?.details?.kind, 'PatchOptions');
  t.is(res.body?.details?.group, 'meta.k8s.io');
}

// ---------------------------------------------------------------------------------------------------------------
// Create and re-apply

test('apply of an absent widget creates it: 201 with one Apply managedFields entry for the applied fields', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const rawBody = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  color: red\n  replicas: 2\n';
  const res = await apply(server, widgetsPath(ns, 'w1'), rawBody);
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.spec, { color: 'red', replicas: 2 });
  t.is(res.body.metadata.name, 'w1');
  t.is(res.body.metadata.namespace, ns);
  t.is(res.body.metadata.generation, 1);
  const entries = managedFields(res.body);
  t.is(entries.length, 1, JSON.stringify(entries));
  const { time, ...entry } = entries[0]!;
  t.regex(String(time), rfc3339);
  t.deepEqual(entry, {
    manager: 'mgr1',
    operation: 'Apply',
    apiVersion: 'example.com/v1',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:spec': { 'f:color': {}, 'f:replicas': {} } },
  });
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.deepEqual(get.body.metadata.managedFields, res.body.metadata.managedFields, 'the entry is stored');
});

test('a JSON body is accepted as apply YAML', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const res = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red' }), { asJson: true });
  t.is(res.status, 201, res.text);
  t.is(res.body.spec.color, 'red');
  t.deepEqual(entryOf(res.body, 'mgr1')?.fieldsV1, { 'f:spec': { 'f:color': {} } });
});

test('re-applying a changed configuration to an existing widget is 200 and changes it', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const first = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red', replicas: 1 }));
  t.is(first.status, 201, first.text);
  const res = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'blue', replicas: 1 }));
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec, { color: 'blue', replicas: 1 });
  t.is(res.body.metadata.uid, first.body.metadata.uid);
  t.is(res.body.metadata.generation, 2);
  t.not(res.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
  t.is(managedFields(res.body).length, 1);
});

test('re-applying the same configuration is a no-op: 200 and the resourceVersion is unchanged', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const config = widgetConfig('w1', { color: 'red', replicas: 1 });
  const first = await apply(server, widgetsPath(ns, 'w1'), config);
  t.is(first.status, 201, first.text);
  const again = await apply(server, widgetsPath(ns, 'w1'), config);
  t.is(again.status, 200, again.text);
  t.is(again.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
});

test('apply to a widget created by POST adds an Apply entry next to the creator', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  await createWidget(server, ns, 'w1', { spec: { color: 'red' } });
  const res = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red', replicas: 4 }));
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec, { color: 'red', replicas: 4 });
  t.deepEqual(entryOf(res.body, 'mgr1', { operation: 'Apply' })?.fieldsV1, { 'f:spec': { 'f:color': {}, 'f:replicas': {} } });
});

// ---------------------------------------------------------------------------------------------------------------
// PatchOptions

test('apply without fieldManager is 422: fieldManager is required', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const res = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red' }), { manager: null });
  expectInvalidPatchOptions(t, res, 'fieldManager: Required value: is required for apply patch');
  await assertAbsent(t, ns, 'w1');
});

test('force on a merge patch is 422: forbidden for non-apply patches', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const created = await createWidget(server, ns, 'w1');
  for (const force of ['true', 'false']) {
    const res = await server.request('PATCH', `${widgetsPath(ns, 'w1')}?force=${force}`, {
      body: { spec: { color: 'blue' } },
      contentType: 'application/merge-patch+json',
    });
    expectInvalidPatchOptions(t, res, 'force: Forbidden: may not be specified for non-apply patch');
  }
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.metadata.resourceVersion, created.metadata.resourceVersion, 'not patched');
});

test('a fieldManager of 129 characters is 422; 128 characters are accepted', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const long = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red' }), { manager: 'm'.repeat(129) });
  expectInvalidPatchOptions(t, long, 'fieldManager');
  await assertAbsent(t, ns, 'w1');
  const max = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red' }), { manager: 'm'.repeat(128) });
  t.is(max.status, 201, max.text);
  t.truthy(entryOf(max.body, 'm'.repeat(128)));
});

test('a fieldManager with a non-printable character is 422', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const res = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red' }), { manager: 'bell\u0007' });
  expectInvalidPatchOptions(t, res, 'fieldManager');
  await assertAbsent(t, ns, 'w1');
});

// ---------------------------------------------------------------------------------------------------------------
// Bodies an apply refuses

test('an apply body with metadata.managedFields is 400: metadata.managedFields must be nil', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const body = widgetConfig('w1', { color: 'red' });
  (body.metadata as Record<string, unknown>).managedFields = [
    { manager: 'mgr1', operation: 'Apply', apiVersion: 'example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } },
  ];
  const res = await apply(server, widgetsPath(ns, 'w1'), body);
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  t.true(String(res.body?.message).includes('metadata.managedFields must be nil'), res.body?.message);
  await assertAbsent(t, ns, 'w1');
});

test('an apply body whose apiVersion or kind does not match the URL is 400', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const wrongVersion = await apply(server, widgetsPath(ns, 'w1'), { ...widgetConfig('w1', { color: 'red' }), apiVersion: 'example.com/v2' });
  expectStatus(t, wrongVersion, { code: 400, reason: 'BadRequest' });
  const wrongKind = await apply(server, widgetsPath(ns, 'w1'), { ...widgetConfig('w1', { color: 'red' }), kind: 'Gadget' });
  expectStatus(t, wrongKind, { code: 400, reason: 'BadRequest' });
  await assertAbsent(t, ns, 'w1');
});

test('an apply body that is a YAML list or a scalar is 400', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  for (const rawBody of ['- apiVersion: example.com/v1\n  kind: Widget\n', '[1, 2]', 'just a string', '42']) {
    const res = await apply(server, widgetsPath(ns, 'w1'), rawBody);
    expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  }
  await assertAbsent(t, ns, 'w1');
});

test('malformed apply YAML is 400', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const rawBody = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1\nspec: [unclosed\n';
  const res = await apply(server, widgetsPath(ns, 'w1'), rawBody);
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  await assertAbsent(t, ns, 'w1');
});

test('a YAML alias bomb is refused quickly and the server keeps serving', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  const lines = [`    a: &a [${Array(10).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < levels.length; i++) {
    lines.push(`    ${levels[i]}: &${levels[i]} [${Array(10).fill(`*${levels[i - 1]}`).join(', ')}]`);
  }
  const rawBody = `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: bomb\nspec:\n  color: red\n  extra:\n${lines.join('\n')}\n`;
  const started = Date.now();
  const res = await apply(server, widgetsPath(ns, 'bomb'), rawBody);
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  t.true(Date.now() - started < 5000, `answered in ${Date.now() - started}ms`);
  t.is((await server.request('GET', '/readyz')).status, 200, 'still serving');
  await assertAbsent(t, ns, 'bomb');
});

// ---------------------------------------------------------------------------------------------------------------
// Dry run

test('dryRun=All apply of an absent widget answers the would-be object with managedFields and stores nothing', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const res = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red' }), { dryRun: true });
  // kube-apiserver answers a dry-run create through apply like a real one: 201 Created.
  t.is(res.status, 201, res.text);
  t.is(res.body.spec.color, 'red');
  t.deepEqual(entryOf(res.body, 'mgr1', { operation: 'Apply' })?.fieldsV1, { 'f:spec': { 'f:color': {} } });
  await assertAbsent(t, ns, 'w1');
});

test('dryRun=All apply to an existing widget answers the changed object and leaves the stored one as it was', async (t) => {
  const ns = await createNamespace(server, 'ssa');
  const created = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red' }));
  t.is(created.status, 201, created.text);
  const res = await apply(server, widgetsPath(ns, 'w1'), widgetConfig('w1', { color: 'red', replicas: 7 }), { dryRun: true });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.spec, { color: 'red', replicas: 7 });
  t.deepEqual(entryOf(res.body, 'mgr1')?.fieldsV1, { 'f:spec': { 'f:color': {}, 'f:replicas': {} } });
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.deepEqual(get.body.spec, { color: 'red' });
  t.is(get.body.metadata.resourceVersion, created.body.metadata.resourceVersion);
  t.deepEqual(get.body.metadata.managedFields, created.body.metadata.managedFields);
});

test('apply with a namespace that does not exist is 404', async (t) => {
  const res = await apply(server, widgetsPath('no-such-namespace-ssa', 'w1'), widgetConfig('w1', { color: 'red' }));
  expectStatus(t, res, { code: 404, reason: 'NotFound' });
});
