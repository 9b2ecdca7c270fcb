/** CustomResourceDefinitions: status conditions, name conflicts, validation, versions, deletion, persistence. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import {
  createNamespace,
  expectStatus,
  installCrd,
  installWidgetsCrd,
  names,
  startTestServer,
  suffix,
  useTestServer,
  waitForServed,
  widget,
  widgetsCrd,
} from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
  },
};

interface Names {
  plural: string;
  kind: string;
  singular?: string;
  listKind?: string;
}

const v1Only = [{ name: 'v1', served: true, storage: true }];

function crd(group: string, names: Names, versions: { name: string; served: boolean; storage: boolean }[] = v1Only) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: { group, scope: 'Namespaced', names, versions: versions.map((v) => ({ ...v, schema })) },
  };
}

/** Creates a CRD (201) and waits until the naming controller has judged it. */
async function createAndJudge(body: ReturnType<typeof crd>) {
  const created = await server.request('POST', crdsPath, { body });
  if (created.status !== 201) throw new Error(`creating ${body.metadata.name}: ${created.status} ${created.text}`);
  return server.waitFor(
    async () => {
      const res = await server.request('GET', `${crdsPath}/${body.metadata.name}`);
      return condition(res.body, 'NamesAccepted') ? res.body : undefined;
    },
    10_000,
    `${body.metadata.name} to be judged`,
  );
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}

function condition(obj: { status?: { conditions?: Condition[] } }, type: string): Condition | undefined {
  return obj.status?.conditions?.find((c) => c.type === type);
}

test('an installed CRD is NamesAccepted and Established, with its accepted names and stored versions', async (t) => {
  const res = await server.request('GET', `${crdsPath}/widgets.example.com`);
  t.is(res.status, 200);
  t.is(res.body.kind, 'CustomResourceDefinition');
  t.like(condition(res.body, 'NamesAccepted'), { status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
  t.like(condition(res.body, 'Established'), { status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  for (const c of res.body.status.conditions) t.regex(c.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.deepEqual(res.body.status.acceptedNames, {
    plural: 'widgets',
    singular: 'widget',
    shortNames: ['wd', 'wdg'],
    kind: 'Widget',
    listKind: 'WidgetList',
    categories: ['all'],
  });
  t.deepEqual(res.body.status.storedVersions, ['v1']);
});

test('creating a CRD defaults singular, listKind and the conversion strategy in its spec', async (t) => {
  // apiextensions v1 SetDefaults_CustomResourceDefinitionSpec.
  const res = await server.request('POST', crdsPath, { body: crd('defaults.example.com', { plural: 'knobs', kind: 'Knob' }) });
  t.is(res.status, 201);
  t.like(res.body.spec.names, { plural: 'knobs', kind: 'Knob', singular: 'knob', listKind: 'KnobList' });
  t.deepEqual(res.body.spec.conversion, { strategy: 'None' });
});

test('a new CRD carries no finalizer until it is deleted', async (t) => {
  // kube adds customresourcecleanup.apiextensions.k8s.io in the CRD registry's Delete, not on create.
  const res = await server.request('GET', `${crdsPath}/widgets.example.com`);
  t.is(res.body.metadata.finalizers, undefined);
});

test('a CRD whose kind is taken in its group is not accepted (KindConflict) and not served', async (t) => {
  // singular and listKind are given so that only the kind conflicts with widgets.example.com.
  const judged = await createAndJudge(crd('example.com', { plural: 'gadgets', kind: 'Widget', singular: 'gadget', listKind: 'GadgetList' }));
  t.like(condition(judged, 'NamesAccepted'), { status: 'False', reason: 'KindConflict', message: '"Widget" is already in use' });
  t.like(condition(judged, 'Established'), { status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  t.is(judged.status.acceptedNames.kind, '');

  // Give the controller time to (wrongly) serve it, then check it does not.
  await new Promise((r) => setTimeout(r, 300));
  const served = await server.request('GET', '/apis/example.com/v1/namespaces/default/gadgets');
  expectStatus(t, served, { code: 404, reason: 'NotFound' });
  const discovery = await server.request('GET', '/apis/example.com/v1');
  t.false(discovery.body.resources.some((r: { name: string }) => r.name === 'gadgets'));
  // The first CRD keeps its names and keeps working.
  const widgetsCrdNow = await server.request('GET', `${crdsPath}/widgets.example.com`);
  t.like(condition(widgetsCrdNow.body, 'NamesAccepted'), { status: 'True' });
  t.is((await server.request('GET', '/apis/example.com/v1/namespaces/default/widgets')).status, 200);
  await server.request('DELETE', `${crdsPath}/gadgets.example.com`);
});

test('the names of a CRD that do not conflict are accepted even when its kind is not', async (t) => {
  // The naming controller accepts each requested name that is free, and leaves only the conflicting ones empty.
  const judged = await createAndJudge(crd('example.com', { plural: 'thingamajigs', kind: 'Widget', singular: 'thingamajig', listKind: 'ThingamajigList' }));
  t.like(condition(judged, 'NamesAccepted'), { status: 'False', reason: 'KindConflict' });
  t.like(judged.status.acceptedNames, { plural: 'thingamajigs', singular: 'thingamajig', kind: '', listKind: 'ThingamajigList' });
  await server.request('DELETE', `${crdsPath}/thingamajigs.example.com`);
});

test('with several name conflicts, NamesAccepted reports the last one kube checks', async (t) => {
  // kube's naming controller checks plural, singular, shortNames, kind, listKind in turn without stopping; each
  // conflict overwrites the condition, so the defaulted listKind WidgetList is what is reported here.
  const judged = await createAndJudge(crd('example.com', { plural: 'doohickeys', kind: 'Widget' }));
  t.like(condition(judged, 'NamesAccepted'), { status: 'False', reason: 'ListKindConflict', message: '"WidgetList" is already in use' });
  t.is((await server.request('GET', '/apis/example.com/v1/namespaces/default/doohickeys')).status, 404);
  await server.request('DELETE', `${crdsPath}/doohickeys.example.com`);
});

test('a CRD named other than plural.group is 422 on metadata.name', async (t) => {
  const body = crd('invalid.example.com', { plural: 'things', kind: 'Thing' });
  body.metadata.name = 'wrong.invalid.example.com';
  const res = await server.request('POST', crdsPath, { body });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(res.body.details.causes, [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "wrong.invalid.example.com": must be spec.names.plural+"."+spec.group', field: 'metadata.name' },
  ]);
  t.is(res.body.details.kind, 'CustomResourceDefinition');
  t.is(res.body.details.group, 'apiextensions.k8s.io');
  t.is((await server.request('GET', `${crdsPath}/wrong.invalid.example.com`)).status, 404);
});

test('CRD versions and names are DNS-1035 labels (kind and listKind but for case), each name\'s errors in one cause, as kube checks them', async (t) => {
  const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  const body: any = crd('invalid.example.com', { plural: '3things', kind: '3Thing', singular: '3thing', listKind: '3ThingList' }, [
    { name: '2', served: true, storage: true },
    { name: 'v1', served: true, storage: false },
    { name: 'v1', served: false, storage: false },
  ]);
  body.spec.names.shortNames = ['ok', '-x'];
  body.spec.names.categories = ['all', 'Bad'];
  const res = await server.request('POST', crdsPath, { body });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  const causes = res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  for (const expected of [
    `spec.versions[0].name: Invalid value: "2": ${dns1035}`,
    'spec.versions: Invalid value: ["2","v1","v1"]: must contain unique version names',
    `spec.names.plural: Invalid value: "3things": ${dns1035}`,
    `spec.names.singular: Invalid value: "3thing": ${dns1035}`,
    `spec.names.kind: Invalid value: "3Thing": may have mixed case, but should otherwise match: ${dns1035}`,
    `spec.names.listKind: Invalid value: "3ThingList": may have mixed case, but should otherwise match: ${dns1035}`,
    `spec.names.shortNames[1]: Invalid value: "-x": ${dns1035}`,
    `spec.names.categories[1]: Invalid value: "Bad": ${dns1035}`,
  ]) {
    t.true(causes.includes(expected), `${expected}\nnot among\n${causes.join('\n')}`);
  }
  t.is(causes.filter((c: string) => c.includes('unique version names')).length, 1);
  t.is(causes.filter((c: string) => c.startsWith('spec.versions[1]') || c.startsWith('spec.names.shortNames[0]') || c.startsWith('spec.names.categories[0]')).length, 0);
});

test('a CRD version without a schema is 422', async (t) => {
  const body = crd('invalid.example.com', { plural: 'things', kind: 'Thing' });
  delete (body.spec.versions[0] as { schema?: unknown }).schema;
  const res = await server.request('POST', crdsPath, { body });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(res.body.details.causes, [
    { reason: 'FieldValueRequired', message: 'Required value: schemas are required', field: 'spec.versions[0].schema.openAPIV3Schema' },
  ]);
  t.is((await server.request('GET', `${crdsPath}/things.invalid.example.com`)).status, 404);
});

test('a CRD served in two versions serves each object in both, with the right apiVersion', async (t) => {
  const group = 'versions.example.com';
  await installCrd(
    server,
    crd(group, { plural: 'gizmos', kind: 'Gizmo' }, [
      { name: 'v1', served: true, storage: true },
      { name: 'v2', served: true, storage: false },
    ]),
  );
  const ns = await createNamespace(server, 'crd');
  const path = (v: string, name = '') => `/apis/${group}/${v}/namespaces/${ns}/gizmos${name ? `/${name}` : ''}`;

  const viaV1 = await server.request('POST', path('v1'), { body: { apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name: 'one' }, spec: { size: 1 } } });
  t.is(viaV1.status, 201);
  const viaV2 = await server.request('POST', path('v2'), { body: { apiVersion: `${group}/v2`, kind: 'Gizmo', metadata: { name: 'two' }, spec: { size: 2 } } });
  t.is(viaV2.status, 201);
  t.is(viaV2.body.apiVersion, `${group}/v2`);

  const oneAsV2 = await server.request('GET', path('v2', 'one'));
  t.is(oneAsV2.status, 200);
  t.is(oneAsV2.body.apiVersion, `${group}/v2`);
  t.is(oneAsV2.body.metadata.uid, viaV1.body.metadata.uid);
  t.deepEqual(oneAsV2.body.spec, { size: 1 });

  const twoAsV1 = await server.request('GET', path('v1', 'two'));
  t.is(twoAsV1.status, 200);
  t.is(twoAsV1.body.apiVersion, `${group}/v1`);
  t.deepEqual(twoAsV1.body.spec, { size: 2 });

  const listV2 = await server.request('GET', path('v2'));
  t.is(listV2.body.apiVersion, `${group}/v2`);
  t.is(listV2.body.kind, 'GizmoList');
  t.deepEqual(names(listV2.body), ['one', 'two']);
  t.true(listV2.body.items.every((i: { apiVersion: string }) => i.apiVersion === `${group}/v2`));

  // A v1 body posted to v2 is refused.
  const mismatch = await server.request('POST', path('v2'), { body: { apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name: 'three' } } });
  expectStatus(t, mismatch, { code: 400, reason: 'BadRequest' });

  const stored = await server.request('GET', `${crdsPath}/gizmos.${group}`);
  t.deepEqual(stored.body.status.storedVersions, ['v1']);
  const groupDoc = await server.request('GET', `/apis/${group}`);
  t.deepEqual(groupDoc.body.versions.map((v: { version: string }) => v.version), ['v2', 'v1']);
  t.deepEqual(groupDoc.body.preferredVersion, { groupVersion: `${group}/v2`, version: 'v2' });
});

test('deleting a CRD deletes all its custom resources, then the CRD', async (t) => {
  const group = 'cleanup.example.com';
  const definition = crd(group, { plural: 'sprockets', kind: 'Sprocket' });
  await installCrd(server, definition);
  const ns1 = await createNamespace(server, 'crd');
  const ns2 = await createNamespace(server, 'crd');
  for (const [ns, name] of [
    [ns1, 'a'],
    [ns1, 'b'],
    [ns2, 'c'],
  ] as const) {
    const res = await server.request('POST', `/apis/${group}/v1/namespaces/${ns}/sprockets`, {
      body: { apiVersion: `${group}/v1`, kind: 'Sprocket', metadata: { name }, spec: { size: 1 } },
    });
    t.is(res.status, 201);
  }

  const del = await server.request('DELETE', `${crdsPath}/sprockets.${group}`);
  t.true(del.status === 200 || del.status === 202, `DELETE answered ${del.status}`);
  t.truthy(del.body.metadata?.deletionTimestamp);

  await server.waitFor(async () => (await server.request('GET', `${crdsPath}/sprockets.${group}`)).status === 404, 15_000, 'the CRD to be gone');
  expectStatus(t, await server.request('GET', `/apis/${group}/v1/sprockets`), { code: 404, reason: 'NotFound' });

  // Defining the resource again shows that none of the old objects survived in storage.
  await installCrd(server, definition);
  const list = await server.request('GET', `/apis/${group}/v1/sprockets`);
  t.is(list.status, 200);
  t.deepEqual(list.body.items, []);
});

test('while its CRD is terminating, custom resources are no longer created (405), and the held one can still be read and changed', async (t) => {
  const group = `terminating${suffix()}.example.com`;
  await installCrd(server, crd(group, { plural: 'gears', kind: 'Gear' }));
  const ns = await createNamespace(server, 'crd');
  const path = `/apis/${group}/v1/namespaces/${ns}/gears`;
  const gear = (name: string, finalizers?: string[]) => ({ apiVersion: `${group}/v1`, kind: 'Gear', metadata: { name, ...(finalizers ? { finalizers } : {}) }, spec: { size: 1 } });
  t.is((await server.request('POST', path, { body: gear('held', ['example.com/hold']) })).status, 201);
  t.is((await server.request('DELETE', `${crdsPath}/gears.${group}`)).status, 200);
  const refused = await server.waitFor(async () => {
    const res = await server.request('POST', path, { body: gear(`new-${suffix()}`) });
    return res.status === 405 ? res : undefined;
  }, 10_000, 'creates to be refused');
  expectStatus(t, refused, { code: 405, reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating' });
  t.deepEqual(refused.body.details, { group, kind: 'gears' });
  t.is((await server.request('GET', `${path}/held`)).status, 200);
  const released = await server.request('PATCH', `${path}/held`, { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
  t.is(released.status, 200, released.text);
  await server.waitFor(async () => (await server.request('GET', `${crdsPath}/gears.${group}`)).status === 404, 15_000, 'the CRD to be gone');
});

test('DELETE of a CRD answers 200 with the CRD marked for deletion', async (t) => {
  // The CRD registry's Delete adds the cleanup finalizer and the Terminating condition and returns the CRD; the
  // delete handler answers 200 for it (202 only for orphanDependents=false).
  const group = 'deletecode.example.com';
  await installCrd(server, crd(group, { plural: 'levers', kind: 'Lever' }));
  const del = await server.request('DELETE', `${crdsPath}/levers.${group}`);
  t.is(del.status, 200);
  t.is(del.body.kind, 'CustomResourceDefinition');
  t.truthy(del.body.metadata.deletionTimestamp);
  t.deepEqual(del.body.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
  t.like(condition(del.body, 'Terminating'), { status: 'True' });
});

test('CRDs survive a restart and are served at once', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-it-restart-'));
  try {
    const first = await startTestServer({ dataDir });
    try {
      await installWidgetsCrd(first);
      const res = await first.request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('survivor') });
      t.is(res.status, 201);
    } finally {
      await first.close();
    }

    const second = await startTestServer({ dataDir });
    try {
      // No waiting: a restarted server serves the CRDs it has in storage before it listens.
      const get = await second.request('GET', '/apis/example.com/v1/namespaces/default/widgets/survivor');
      t.is(get.status, 200);
      t.is(get.body.spec.color, 'red');
      const crdNow = await second.request('GET', `${crdsPath}/widgets.example.com`);
      t.like(condition(crdNow.body, 'Established'), { status: 'True' });
      // And it keeps working as before: discovery and writes.
      await waitForServed(second, 'example.com', 'v1', 'widgets');
      const create = await second.request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('after-restart') });
      t.is(create.status, 201);
      // Creating the CRD again is a conflict: it is still there.
      const again = await second.request('POST', crdsPath, { body: await widgetsCrd() });
      expectStatus(t, again, { code: 409, reason: 'AlreadyExists' });
    } finally {
      await second.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
