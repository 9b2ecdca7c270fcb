// MutatingAdmissionPolicies whose mutations compile but fail on the object they run on, over HTTP: an apply
// configuration of the wrong shape, JSON patches that do not apply or leave an object that does not decode. Each
// ends as the policy's failurePolicy says — Fail: kube's 403 Status naming policy and binding, nothing stored;
// Ignore: the object goes on unchanged — and never as a 500.
import test from 'ava';
import { expectStatus, useTestServer, widget, widgetsPath, type TestResponse } from '../helpers/test-server.js';
import { installMutatingPolicy } from '../helpers/map.js';
import { scopedNamespace } from '../helpers/vap.js';

const server = useTestServer({ widgetsCrd: true });

const LABEL = { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}' } };
const labelled = (res: TestResponse) => res.status === 201 && res.body.metadata.labels?.mutated === 'yes';

/**
 * Creates a widget where `mutation` runs under failurePolicy Fail, and one where it runs under Ignore; in both
 * namespaces a policy that labels the widget follows (named after it, so it runs after it and shows it is in force).
 */
async function underBothPolicies(prefix: string, mutation: Record<string, unknown>): Promise<{ fail: TestResponse; ignore: TestResponse; failing: string }> {
  const created: TestResponse[] = [];
  let failing = '';
  for (const failurePolicy of ['Fail', 'Ignore']) {
    const { ns, id, selector } = await scopedNamespace(server, `${prefix}-${failurePolicy.toLowerCase()}`);
    if (failurePolicy === 'Fail') failing = `a-${prefix}-${id}`;
    await installMutatingPolicy(server, `a-${prefix}-${id}`, selector, { failurePolicy, mutations: [mutation] }, { ns, inForce: () => true });
    await installMutatingPolicy(server, `b-${prefix}-${id}`, selector, { mutations: [LABEL] }, { ns, inForce: (res) => res.status === 403 || labelled(res) });
    created.push(await server.request('POST', widgetsPath(ns), { body: widget('w', { spec: { color: 'red', replicas: 1 } }) }));
  }
  return { fail: created[0], ignore: created[1], failing };
}

/** Fail: kube's 403 with the mutation's error, naming policy and binding (both named `name`). */
function expectDenied(t: Parameters<typeof expectStatus>[0], res: TestResponse, name: string, error: string | RegExp): void {
  const prefix = `policy '${name}' with binding '${name}' denied request: `;
  t.is(res.status, 403, res.text);
  t.like(res.body, { kind: 'Status', reason: 'Invalid', details: { name: 'w', group: 'example.com', kind: 'widgets' } });
  if (typeof error === 'string') t.is(res.body.message, prefix + error);
  else t.regex(res.body.message.slice(prefix.length), error);
  t.is(res.body.details.causes[0].message, res.body.message);
}

/** Created as it was sent, but for the label of the policy after. */
function expectUnchanged(t: Parameters<typeof expectStatus>[0], res: TestResponse): void {
  t.is(res.status, 201, res.text);
  t.deepEqual(Object.keys(res.body).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  t.deepEqual(res.body.spec, { color: 'red', replicas: 1 });
  t.deepEqual(res.body.metadata.labels, { mutated: 'yes' });
  t.is(res.body.metadata.finalizers, undefined);
}

test('ApplyConfiguration: a map where the object has a list fails as SMD words it', async (t) => {
  const { fail, ignore, failing } = await underBothPolicies('map-for-list', {
    patchType: 'ApplyConfiguration',
    applyConfiguration: { expression: 'Object{metadata: Object.metadata{finalizers: {"example.com/a": "b"}}}' },
  });
  expectDenied(t, fail, failing, 'error applying patch: failed to convert patch object to typed object: .metadata.finalizers: expected list, got &{map[example.com/a:b]}');
  expectUnchanged(t, ignore);
});

test('ApplyConfiguration: metadata values that are not what ObjectMeta holds fail to decode', async (t) => {
  const { fail, ignore, failing } = await underBothPolicies('bad-meta', {
    patchType: 'ApplyConfiguration',
    applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"replicas": 2}}}' },
  });
  expectDenied(t, fail, failing, 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string');
  expectUnchanged(t, ignore);
});

test("JSONPatch: an operation on a missing path fails with json-patch's text", async (t) => {
  const { fail, ignore, failing } = await underBothPolicies('missing-path', { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec/missing/x", value: 1}]' } });
  expectDenied(t, fail, failing, 'JSON Patch: add operation does not apply: doc is missing path: "/spec/missing/x": missing value');
  expectUnchanged(t, ignore);
});

test('JSONPatch: a patch leaving an object without kind, or with labels that are no map, fails to decode', async (t) => {
  const noKind = await underBothPolicies('no-kind', { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "remove", path: "/kind"}]' } });
  expectDenied(t, noKind.fail, noKind.failing, /^Object 'Kind' is missing in '\{"apiVersion":"example\.com\/v1","metadata":\{.*\},"spec":\{"color":"red","replicas":1\}\}'$/);
  expectUnchanged(t, noKind.ignore);
  const labels = await underBothPolicies('labels', { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels", value: ["a"]}]' } });
  expectDenied(t, labels.fail, labels.failing, 'json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string');
  expectUnchanged(t, labels.ignore);
});

test('JSONPatch: replace of "/" with a string sets the key "", which decoding prunes, as in kube (json-patch v4)', async (t) => {
  const { fail, ignore } = await underBothPolicies('replace-root', { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "replace", path: "/", value: "abc"}]' } });
  expectUnchanged(t, fail);
  expectUnchanged(t, ignore);
});
