// The MutatingAdmissionPolicy admission plugin over HTTP: ApplyConfiguration and JSONPatch mutations of created
// widgets, params from a custom resource, dry run, failurePolicy Fail (kube's Status) and Ignore, schema validation
// of the mutated object, and policies that do not match; a policy's mutations type-checked against the kinds it
// matches, as warnings when it is written.
import test from 'ava';
import { expectStatus, installCrd, suffix, useTestServer, widget, widgetsPath, type TestResponse } from '../helpers/test-server.js';
import { oneVersionCrd } from '../helpers/crd.js';
import { installMutatingPolicy, mapbPath, mapPath, mutatingBinding, mutatingPolicy } from '../helpers/map.js';
import { scopedNamespace } from '../helpers/vap.js';

const server = useTestServer({ widgetsCrd: true });

const teamsCrd = oneVersionCrd({
  group: 'params.example.com',
  plural: 'teams',
  kind: 'Team',
  schema: { type: 'object', properties: { spec: { type: 'object', properties: { owner: { type: 'string' } } } } },
});

// tiers need a level, defaulted by the schema: a mutation adding a tier is valid only when defaults follow it
const gadgetsCrd = oneVersionCrd({
  group: 'defaults.example.com',
  plural: 'gadgets',
  kind: 'Gadget',
  schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { tier: { type: 'object', required: ['level'], properties: { level: { type: 'string', default: 'basic' } } } } } },
  },
});

test.before(async () => {
  await installCrd(server, teamsCrd);
  await installCrd(server, gadgetsCrd);
});

const LABEL = 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}';
const applyConfiguration = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });

const create = (ns: string, name: string, opts: Parameters<typeof widget>[1] = {}, query = '') =>
  server.request('POST', `${widgetsPath(ns)}${query}`, { body: widget(name, opts) });

const install = (name: string, selector: Record<string, unknown>, spec: Record<string, unknown>, probe: Parameters<typeof installMutatingPolicy>[4], bindingSpec?: Record<string, unknown>) =>
  installMutatingPolicy(server, name, selector, spec, probe, bindingSpec);

const labelled = (res: TestResponse) => res.status === 201 && res.body.metadata.labels?.mutated === 'yes';

test('ApplyConfiguration: a label is added to created widgets and stored', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-apply');
  await install(`apply-${id}`, selector, { mutations: [applyConfiguration(LABEL)] }, { ns, inForce: labelled });
  const res = await create(ns, 'w', { labels: { keep: 'me' } });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.metadata.labels, { keep: 'me', mutated: 'yes' });
  const stored = await server.request('GET', widgetsPath(ns, 'w'));
  t.deepEqual(stored.body.metadata.labels, { keep: 'me', mutated: 'yes' });
});

test('JSONPatch: a value is appended to a list; mutations run in order, each on the previous result', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-jsonpatch');
  const mutations = [
    applyConfiguration('Object{metadata: Object.metadata{labels: {"mutated": "yes"}, finalizers: ["example.com/first"]}}'),
    {
      patchType: 'JSONPatch',
      jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/finalizers/-", value: "example.com/" + object.metadata.labels["mutated"]}]' },
    },
  ];
  await install(`jsonpatch-${id}`, selector, { mutations }, { ns, inForce: (res) => res.status === 201 && res.body.metadata.finalizers?.includes('example.com/yes') });
  const res = await create(ns, 'w');
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.metadata.finalizers, ['example.com/first', 'example.com/yes']);
});

test('params: the value comes from the custom resource the binding refers to', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-params');
  const team = await server.request('POST', `/apis/params.example.com/v1/namespaces/${ns}/teams`, {
    body: { apiVersion: 'params.example.com/v1', kind: 'Team', metadata: { name: 'team' }, spec: { owner: 'blue' } },
  });
  t.is(team.status, 201, team.text);
  await install(
    `params-${id}`,
    selector,
    { paramKind: { apiVersion: 'params.example.com/v1', kind: 'Team' }, mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"owner": params.spec.owner}}}')] },
    { ns, inForce: (res) => res.status === 201 && res.body.metadata.labels?.owner === 'blue' },
    { paramRef: { name: 'team', parameterNotFoundAction: 'Deny' } },
  );
  const res = await create(ns, 'w');
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.metadata.labels, { owner: 'blue' });
});

test('dryRun=All: the answer shows the mutation and nothing is stored', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-dryrun');
  await install(`dryrun-${id}`, selector, { mutations: [applyConfiguration(LABEL)] }, { ns, inForce: labelled });
  const res = await create(ns, 'dry', {}, '?dryRun=All');
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.metadata.labels, { mutated: 'yes' });
  t.is((await server.request('GET', widgetsPath(ns, 'dry'))).status, 404);
});

const FAILING = 'Object{spec: Object.spec{color: object.spec.missing}}';

test("failurePolicy Fail: an evaluation error answers kube's Status naming the policy and binding", async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-fail');
  const name = `fail-${id}`;
  await install(name, selector, { failurePolicy: 'Fail', mutations: [applyConfiguration(FAILING)] }, { ns, inForce: (res) => res.status === 403 });
  const res = await create(ns, 'w');
  const message = `policy '${name}' with binding '${name}' denied request: expression '${FAILING}' resulted in error: no such key: missing`;
  expectStatus(t, res, { code: 403, reason: 'Invalid', message });
  t.like(res.body.details, { name: 'w', group: 'example.com', kind: 'widgets', causes: [{ message }] });
  t.is((await server.request('GET', widgetsPath(ns, 'w'))).status, 404);
});

test('failurePolicy Ignore: a failing mutation lets the object through unchanged', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-ignore');
  // the second policy (by name) shows when both are in force; the first fails and is ignored
  await install(`a-ignore-${id}`, selector, { failurePolicy: 'Ignore', mutations: [applyConfiguration(FAILING)] }, { ns, inForce: (res) => res.status === 201 });
  await install(`b-label-${id}`, selector, { mutations: [applyConfiguration(LABEL)] }, { ns, inForce: labelled });
  const res = await create(ns, 'w', { spec: { color: 'green', replicas: 2 } });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.spec, { color: 'green', replicas: 2 });
  t.deepEqual(res.body.metadata.labels, { mutated: 'yes' });
});

test("a mutation making the object invalid is refused by the schema's validation (422)", async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-invalid');
  await install(`invalid-${id}`, selector, { mutations: [applyConfiguration('Object{spec: Object.spec{replicas: -1}}')] }, { ns, inForce: (res) => res.status === 422 });
  const res = await create(ns, 'w');
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.true(res.body.details.causes.some((c: { field: string }) => c.field === 'spec.replicas'), res.text);
});

test("the schema's defaults follow each mutation, before validation", async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'map-defaults');
  const gadgets = `/apis/defaults.example.com/v1/namespaces/${ns}/gadgets`;
  const gadget = (name: string) => ({ apiVersion: 'defaults.example.com/v1', kind: 'Gadget', metadata: { name } });
  const matchConstraints = {
    namespaceSelector: selector,
    resourceRules: [{ apiGroups: ['defaults.example.com'], apiVersions: ['*'], operations: ['CREATE'], resources: ['gadgets'] }],
  };
  const mutations = [applyConfiguration('Object{spec: Object.spec{tier: Object.spec.tier{}}}')];
  t.is((await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`defaults-${id}`, { matchConstraints, mutations }) })).status, 201);
  t.is((await server.request('POST', mapbPath('v1'), { body: mutatingBinding(`defaults-${id}`, `defaults-${id}`) })).status, 201);
  const probe = async () => (await server.request('POST', `${gadgets}?dryRun=All`, { body: gadget('probe') })).body.spec?.tier !== undefined;
  await server.waitFor(probe, 10_000, 'policy in force');
  const res = await server.request('POST', gadgets, { body: gadget('g') });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.spec, { tier: { level: 'basic' } });
});

test('a policy that does not match leaves objects alone', async (t) => {
  const { ns, id } = await scopedNamespace(server, 'map-nomatch');
  const other = await scopedNamespace(server, 'map-other');
  // in force in `other`, not in `ns`
  await install(`nomatch-${id}`, other.selector, { mutations: [applyConfiguration(LABEL)] }, { ns: other.ns, inForce: labelled });
  const res = await create(ns, 'w', { labels: { keep: 'me' } });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.metadata.labels, { keep: 'me' });
});

test("a policy's mutations are type-checked against the schemas of the kinds it matches: one warning per mutation, never a refusal", async (t) => {
  const resourceRules = [
    { apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] },
    { apiGroups: ['params.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['teams'] },
  ];
  const name = `typed-${suffix()}`;
  const policy = mutatingPolicy(name, {
    matchConstraints: { resourceRules },
    mutations: [
      applyConfiguration(LABEL),
      applyConfiguration('Object{spec: Object.spec{color: "red"}}'),
      applyConfiguration('Object{spec: Object.spec{colour: "red"}}'),
      { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec", value: Object.spec.owner{}}]' } },
    ],
  });
  const expected = [
    "spec.mutations[1].applyConfiguration.expression: params.example.com/v1, Kind=Team: ERROR: <input>:1:31: undefined field 'color'",
    "spec.mutations[2].applyConfiguration.expression: example.com/v1, Kind=Widget: ERROR: <input>:1:32: undefined field 'colour'; params.example.com/v1, Kind=Team: ERROR: <input>:1:32: undefined field 'colour'",
    "spec.mutations[3].jsonPatch.expression: example.com/v1, Kind=Widget: ERROR: <input>:1:62: undeclared reference to 'Object.spec.owner' (in container ''); params.example.com/v1, Kind=Team: ERROR: <input>:1:62: undeclared reference to 'Object.spec.owner' (in container '')",
  ];
  const header = (res: TestResponse) => res.headers.warning;
  const asHeader = (texts: string[]) => texts.map((w) => `299 - ${JSON.stringify(w)}`).join(', ');
  const dry = await server.request('POST', `${mapPath('v1')}?dryRun=All`, { body: policy });
  t.is(dry.status, 201, dry.text);
  t.is(header(dry), asHeader(expected));
  const created = await server.request('POST', mapPath('v1'), { body: policy });
  t.is(created.status, 201, created.text);
  t.is(header(created), asHeader(expected));
  const fixed = { ...created.body, spec: { ...created.body.spec, mutations: created.body.spec.mutations.slice(0, 2) } };
  const updated = await server.request('PUT', `${mapPath('v1')}/${name}`, { body: fixed });
  t.is(updated.status, 200, updated.text);
  t.is(header(updated), asHeader(expected.slice(0, 1)));
  const clean = await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`typed-${suffix()}`, { mutations: [applyConfiguration('Object{spec: Object.spec{replicas: 2}}')] }) });
  t.is(clean.status, 201, clean.text);
  t.is(header(clean), undefined);
});
