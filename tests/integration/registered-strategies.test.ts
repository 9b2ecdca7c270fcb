/**
 * Strategy hooks registered by group/kind (defineStrategy, Tokens.Strategy), over HTTP: for a CRD-defined kind whose
 * CRD is created after the server started (prepareForCreate, validate, warnings, canonicalize through every write
 * verb), and for a built-in kind, where they run after the built-in's own hooks.
 */
import test from 'ava';
import { defineStrategy, fieldErrors, Tokens, type KubeObject, type Module } from '../../index.js';
import { createNamespace, createWidget, expectStatus, installCrd, suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import { apply, widgetConfig } from '../helpers/ssa.js';
import { gadgetsCrd } from '../helpers/gadgets-crd.js';

interface Widget extends KubeObject {
  spec?: { color?: string; replicas?: number };
  status?: { ready?: boolean; replicas?: number };
}

interface Namespace extends KubeObject {
  metadata: NonNullable<KubeObject['metadata']>;
}

const widgetLifecycle = defineStrategy<Widget>({
  group: 'example.com',
  kind: 'Widget',
  prepareForCreate(w) {
    w.status = { ready: false };
  },
  validate(w) {
    const replicas = w.spec?.replicas ?? 0;
    return replicas > 10 ? [fieldErrors.invalid('spec.replicas', replicas, 'must be no more than 10')] : [];
  },
  warningsOnCreate: (w) => (w.spec?.replicas === 0 ? [`widget ${w.metadata?.name} has no replicas`] : []),
  canonicalize(w) {
    if (w.spec?.color) w.spec.color = w.spec.color.toLowerCase();
  },
});

// A second registration for the same kind: its hooks run after the first's.
const widgetColors = defineStrategy<Widget>({
  group: 'example.com',
  kind: 'Widget',
  prepareForCreate(w) {
    w.status = { ...w.status, replicas: 0 };
  },
  validate: (w) => (w.spec?.color ? [] : [fieldErrors.required('spec.color', 'every widget has a color')]),
  warningsOnCreate: (w) => (w.spec?.replicas === 0 ? ['idle widgets cost money'] : []),
  warningsOnUpdate: (w, old, subresource) => (subresource === '' && w.spec?.color !== old.spec?.color ? [`color changes from ${old.spec?.color} to ${w.spec?.color}`] : []),
});

const frozenLabel = 'example.com/frozen';
const namespaceRules = defineStrategy<Namespace>({
  group: '',
  kind: 'Namespace',
  // Runs after the built-in's prepareForCreate, so it sees the label that one sets.
  prepareForCreate(ns) {
    ns.metadata.annotations = { ...ns.metadata.annotations, 'example.com/name-label': ns.metadata.labels?.['kubernetes.io/metadata.name'] ?? '' };
  },
  validate: (ns) => (ns.metadata.labels?.[frozenLabel] ? [fieldErrors.forbidden(`metadata.labels[${frozenLabel}]`, 'namespaces are not frozen here')] : []),
});

const deletedAnnotation = 'example.org/deletion-prepared';
const gadgetDeletion = defineStrategy({
  group: 'example.org',
  kind: 'Gadget',
  prepareForDeletion(gadget) {
    gadget.metadata = { ...gadget.metadata, annotations: { ...gadget.metadata?.annotations, [deletedAnnotation]: 'true' } };
  },
});

const strategies: Module = (c) => {
  for (const s of [widgetLifecycle, widgetColors, namespaceRules, gadgetDeletion]) c.register(Tokens.Strategy, { useValue: s });
};
// The widgets CRD is created through the API once the server listens: its kind gets the strategies as it is established.
const server = useTestServer({ storage: 'memory', widgetsCrd: true, modules: [strategies] });

test('prepareForCreate of every registration for a CRD-defined kind runs, in order, and its fields are in the answer', async (t) => {
  const ns = await createNamespace(server, 'strategy');
  const name = `w-${suffix()}`;
  const res = await server.request('POST', widgetsPath(ns), { body: widget(name) });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.status, { ready: false, replicas: 0 });
  t.deepEqual((await server.request('GET', widgetsPath(ns, name))).body.status, { ready: false, replicas: 0 });
});

test("validate refuses with kube's 422 Invalid naming the fields: the causes of every registration, nothing stored", async (t) => {
  const ns = await createNamespace(server, 'strategy');
  const name = `w-${suffix()}`;
  const res = await server.request('POST', widgetsPath(ns), { body: widget(name, { spec: { replicas: 11 } }) });
  expectStatus(t, res, {
    code: 422,
    reason: 'Invalid',
    message: `Widget.example.com "${name}" is invalid: [spec.replicas: Invalid value: 11: must be no more than 10, spec.color: Required value: every widget has a color]`,
  });
  t.deepEqual(res.body.details, {
    name,
    group: 'example.com',
    kind: 'Widget',
    causes: [
      { reason: 'FieldValueInvalid', message: 'Invalid value: 11: must be no more than 10', field: 'spec.replicas' },
      { reason: 'FieldValueRequired', message: 'Required value: every widget has a color', field: 'spec.color' },
    ],
  });
  t.is((await server.request('GET', widgetsPath(ns, name))).status, 404);
});

test('validate refuses an update too, and the stored object stays', async (t) => {
  const ns = await createNamespace(server, 'strategy');
  const name = `w-${suffix()}`;
  const created = await createWidget(server, ns, name);
  const put = await server.request('PUT', widgetsPath(ns, name), { body: { ...created, spec: { color: 'red', replicas: 12 } } });
  expectStatus(t, put, { code: 422, reason: 'Invalid', message: `Widget.example.com "${name}" is invalid: spec.replicas: Invalid value: 12: must be no more than 10` });
  t.deepEqual((await server.request('GET', widgetsPath(ns, name))).body.spec, { color: 'red', replicas: 1 });
});

test('warningsOnCreate and warningsOnUpdate of every registration go out as Warning headers for valid writes only, dry-run included', async (t) => {
  const ns = await createNamespace(server, 'strategy');
  const name = `w-${suffix()}`;
  const idle = widget(name, { spec: { color: 'red', replicas: 0 } });
  const expected = `299 - "widget ${name} has no replicas", 299 - "idle widgets cost money"`;
  const dry = await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: idle });
  t.is(dry.status, 201, dry.text);
  t.is(dry.headers.warning, expected);
  const created = await server.request('POST', widgetsPath(ns), { body: idle });
  t.is(created.status, 201, created.text);
  t.is(created.headers.warning, expected);
  const invalid = await server.request('POST', widgetsPath(ns), { body: widget(`w-${suffix()}`, { spec: { replicas: 0 } }) });
  expectStatus(t, invalid, { code: 422, reason: 'Invalid' });
  t.is(invalid.headers.warning, undefined, 'an invalid object gets no warnings');
  const busy = await server.request('POST', widgetsPath(ns), { body: widget(`w-${suffix()}`, { spec: { color: 'red', replicas: 1 } }) });
  t.is(busy.headers.warning, undefined);

  const updated = await server.request('PATCH', widgetsPath(ns, name), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
  t.is(updated.status, 200, updated.text);
  t.is(updated.headers.warning, '299 - "color changes from red to blue"', 'warningsOnCreate is not called on update');
  const status = await server.request('PATCH', `${widgetsPath(ns, name)}/status`, { body: { status: { ready: true } }, contentType: 'application/merge-patch+json' });
  t.is(status.status, 200, status.text);
  t.is(status.headers.warning, undefined);
});

test('canonicalize normalizes what is stored on create, PUT, merge and JSON patch, and server-side apply', async (t) => {
  const ns = await createNamespace(server, 'strategy');
  const name = `w-${suffix()}`;
  const stored = async () => (await server.request('GET', widgetsPath(ns, name))).body.spec.color;

  const created = await server.request('POST', widgetsPath(ns), { body: widget(name, { spec: { color: 'RED', replicas: 1 } }) });
  t.is(created.status, 201, created.text);
  t.is(created.body.spec.color, 'red');
  t.is(await stored(), 'red');

  const put = await server.request('PUT', widgetsPath(ns, name), { body: { ...created.body, spec: { color: 'Blue', replicas: 1 } } });
  t.is(put.status, 200, put.text);
  t.is(put.body.spec.color, 'blue');
  t.is(await stored(), 'blue');

  const merge = await server.request('PATCH', widgetsPath(ns, name), { body: { spec: { color: 'GREEN' } }, contentType: 'application/merge-patch+json' });
  t.is(merge.status, 200, merge.text);
  t.is(merge.body.spec.color, 'green');
  t.is(await stored(), 'green');

  const jsonPatch = [{ op: 'replace', path: '/spec/color', value: 'Yellow' }];
  const patched = await server.request('PATCH', widgetsPath(ns, name), { body: jsonPatch, contentType: 'application/json-patch+json' });
  t.is(patched.status, 200, patched.text);
  t.is(patched.body.spec.color, 'yellow');
  t.is(await stored(), 'yellow');

  const applied = await apply(server, widgetsPath(ns, name), widgetConfig(name, { color: 'PURPLE' }), { force: true });
  t.is(applied.status, 200, applied.text);
  t.is(applied.body.spec.color, 'purple');
  t.is(await stored(), 'purple');
});

test('canonicalize normalizes an object created by server-side apply', async (t) => {
  const ns = await createNamespace(server, 'strategy');
  const name = `w-${suffix()}`;
  const applied = await apply(server, widgetsPath(ns, name), widgetConfig(name, { color: 'TEAL', replicas: 2 }));
  t.is(applied.status, 201, applied.text);
  t.deepEqual(applied.body.spec, { color: 'teal', replicas: 2 });
  t.deepEqual((await server.request('GET', widgetsPath(ns, name))).body.spec, { color: 'teal', replicas: 2 });
});

test("a strategy for a built-in kind runs after the built-in's own: its causes follow the built-in's, its prepare sees the built-in's", async (t) => {
  const name = `strategy-${suffix()}`;
  const body = (labels: Record<string, string>, finalizers: string[] = []) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels }, spec: { finalizers } });

  const refused = await server.request('POST', '/api/v1/namespaces', { body: body({ [frozenLabel]: 'true' }, ['custom']) });
  expectStatus(t, refused, { code: 422, reason: 'Invalid' });
  t.deepEqual(refused.body.details.causes, [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified', field: 'spec.finalizers' },
    { reason: 'FieldValueForbidden', message: 'Forbidden: namespaces are not frozen here', field: `metadata.labels[${frozenLabel}]` },
  ]);
  t.is((await server.request('GET', `/api/v1/namespaces/${name}`)).status, 404);

  const created = await server.request('POST', '/api/v1/namespaces', { body: body({ team: 'a' }) });
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body.metadata.labels, { team: 'a', 'kubernetes.io/metadata.name': name });
  t.deepEqual(created.body.metadata.annotations, { 'example.com/name-label': name });
  t.deepEqual(created.body.status, { phase: 'Active' });

  const labelled = await server.request('PATCH', `/api/v1/namespaces/${name}`, {
    body: { metadata: { labels: { [frozenLabel]: 'true' } } },
    contentType: 'application/merge-patch+json',
  });
  expectStatus(t, labelled, { code: 422, reason: 'Invalid', message: `Namespace "${name}" is invalid: metadata.labels[${frozenLabel}]: Forbidden: namespaces are not frozen here` });
});

test("prepareForDeletion runs when an object's deletion starts: on DELETE, and when its CRD's deletion removes it", async (t) => {
  await installCrd(server, gadgetsCrd);
  const ns = await createNamespace(server, 'strategy');
  const gadgets = `/apis/example.org/v1/namespaces/${ns}/gadgets`;
  const gadget = (name: string) => ({ apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name, finalizers: ['example.org/hold'] }, spec: { replicas: 1 } });
  for (const name of ['deleted', 'cleaned-up']) t.is((await server.request('POST', gadgets, { body: gadget(name) })).status, 201);

  const deleted = await server.request('DELETE', `${gadgets}/deleted`);
  t.is(deleted.status, 200, deleted.text);
  t.truthy(deleted.body.metadata.deletionTimestamp);
  t.is(deleted.body.metadata.annotations?.[deletedAnnotation], 'true');

  const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.org';
  t.is((await server.request('DELETE', crdPath)).status, 200);
  const cleanedUp = await server.waitFor(async () => {
    const res = await server.request('GET', `${gadgets}/cleaned-up`);
    return res.body.metadata?.deletionTimestamp ? res.body : undefined;
  }, 10_000, 'the CRD cleanup to delete the gadget');
  t.is(cleanedUp.metadata.annotations?.[deletedAnnotation], 'true');

  // Let the CRD go: its objects' finalizers are done.
  for (const name of ['deleted', 'cleaned-up']) {
    const res = await server.request('PATCH', `${gadgets}/${name}`, { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
    t.is(res.status, 200, res.text);
  }
  await server.waitFor(async () => (await server.request('GET', crdPath)).status === 404, 15_000, 'the CRD to be gone');
});
