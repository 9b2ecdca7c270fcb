// MutatingAdmissionWebhook: JSON patches from real HTTPS webhooks applied in kube's order, reinvocation, patch
// errors, and the validation that follows the mutations.
import test from 'ava';
import { expectStatus, installCrd, suffix, useTestServer, widget, widgetsCrd, widgetsPath, type TestServer } from '../helpers/test-server.js';
import {
  admissionResponse,
  allow,
  patch,
  createWebhookTestNamespace,
  webhookConfiguration,
  webhookConfigurationsPath,
  useWebhookServer,
  installWebhookConfigurations,
} from '../helpers/webhook-server.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });
const hooks = useWebhookServer();

const namespace = (s: TestServer) => createWebhookTestNamespace(s, 'mwh');

/** Creates mutating configurations limited to `ns` and waits until a dry-run create in `ns` (of a widget with `probeLabels`) reaches `path`. */
async function install(ns: string, path: string | { path: string; probeLabels: Record<string, string> }, ...configs: ReturnType<typeof webhookConfiguration>[]): Promise<void> {
  const probe = typeof path === 'string' ? { path } : { path: path.path, labels: path.probeLabels };
  await installWebhookConfigurations(server, hooks, 'Mutating', ns, probe, ...configs);
}

const reviewsOf = (path: string, name: string) => hooks.requestsTo(path).filter((r) => r.body?.request?.name === name);

test('a JSON patch from a mutating webhook is applied and stored', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(
    `/label-${id}`,
    patch([
      { op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } },
      { op: 'replace', path: '/spec/color', value: 'green' },
    ]),
  );
  await install(ns, `/label-${id}`, webhookConfiguration('Mutating', `label-${id}`, { path: `/label-${id}` }));
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w') });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.metadata.labels, { mutated: 'yes' });
  t.is(res.body.spec.color, 'green');
  const stored = (await server.request('GET', widgetsPath(ns, 'w'))).body;
  t.deepEqual(stored.metadata.labels, { mutated: 'yes' });
  t.is(stored.spec.color, 'green');
});

test('webhooks run by configuration name, then in order, each seeing the object the previous ones patched', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  // each webhook records the annotations it was shown and adds its own
  const seen: string[] = [];
  const tracer = (me: string) => (review: any, path: string) => {
    if (review.request.name !== 'traced') return allow(review, path);
    const annotations = review.request.object.metadata.annotations ?? {};
    seen.push(`${me} saw [${Object.keys(annotations).sort().join(',')}]`);
    const ops = Object.keys(annotations).length ? [] : [{ op: 'add', path: '/metadata/annotations', value: {} }];
    return patch([...ops, { op: 'add', path: `/metadata/annotations/${me}`, value: 'x' }])(review, path);
  };
  for (const me of ['a1', 'a2', 'b1']) hooks.handle(`/${me}-${id}`, tracer(me));
  await install(
    ns,
    `/b1-${id}`,
    webhookConfiguration('Mutating', `b-${id}`, { path: `/b1-${id}` }),
    webhookConfiguration('Mutating', `a-${id}`, { path: `/a1-${id}` }, { path: `/a2-${id}` }),
  );
  const res = await server.request('POST', widgetsPath(ns), { body: widget('traced') });
  t.is(res.status, 201, res.text);
  t.deepEqual(seen, ['a1 saw []', 'a2 saw [a1]', 'b1 saw [a1,a2]']);
  t.deepEqual(Object.keys(res.body.metadata.annotations).sort(), ['a1', 'a2', 'b1']);
});

test('reinvocationPolicy IfNeeded calls a webhook again when a later webhook changed the object', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  // first: labels the widget `first` with the labels it saw; second: adds label `second` (changing the object)
  const first = (review: any, path: string) => {
    const labels = review.request.object.metadata.labels ?? {};
    const seenLabels = Object.keys(labels).filter((k) => k !== 'first').sort().join('.') || 'none';
    return patch([{ op: 'add', path: '/metadata/labels', value: { ...labels, first: seenLabels } }])(review, path);
  };
  const second = (review: any, path: string) => {
    const labels = review.request.object.metadata.labels ?? {};
    return labels.second ? allow(review, path) : patch([{ op: 'add', path: '/metadata/labels', value: { ...labels, second: 'yes' } }])(review, path);
  };
  hooks.handle(`/first-${id}`, first);
  hooks.handle(`/never-${id}`, first);
  hooks.handle(`/second-${id}`, second);
  await install(
    ns,
    `/second-${id}`,
    webhookConfiguration('Mutating', `a-${id}`, { path: `/first-${id}`, reinvocationPolicy: 'IfNeeded' }),
    webhookConfiguration('Mutating', `b-${id}`, { path: `/second-${id}` }),
  );
  const res = await server.request('POST', widgetsPath(ns), { body: widget('again') });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.metadata.labels, { first: 'second', second: 'yes' }, 'the second call saw the label added after the first');
  t.is(reviewsOf(`/first-${id}`, 'again').length, 2);
  t.is(reviewsOf(`/second-${id}`, 'again').length, 1, 'a Never webhook is not called again');

  // with Never, the first webhook runs once and never sees the later label
  const ns2 = await namespace(server);
  await install(
    ns2,
    `/second-${id}`,
    webhookConfiguration('Mutating', `c-${id}`, { path: `/never-${id}` }),
    webhookConfiguration('Mutating', `d-${id}`, { path: `/second-${id}` }),
  );
  const once = await server.request('POST', widgetsPath(ns2), { body: widget('once') });
  t.deepEqual(once.body.metadata.labels, { first: 'none', second: 'yes' });
  t.is(reviewsOf(`/never-${id}`, 'once').length, 1);
});

test('a patch that cannot be applied is a 500 whatever the failure policy, and nothing is stored', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/bad-${id}`, patch([{ op: 'add', path: '/spec/missing/deep', value: 1 }]));
  await install(ns, `/bad-${id}`, webhookConfiguration('Mutating', `bad-${id}`, { path: `/bad-${id}`, failurePolicy: 'Ignore' }));
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w') });
  expectStatus(t, res, {
    code: 500,
    reason: 'InternalError',
    message: 'Internal error occurred: add operation does not apply: doc is missing path: "/spec/missing/deep": missing value',
  });
  t.is((await server.request('GET', widgetsPath(ns, 'w'))).status, 404);
});

test('a patch that is not a JSON patch is a webhook failure: 500 under Fail, ignored under Ignore', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  const notAPatch = Buffer.from(JSON.stringify({ op: 'add', path: '/spec/color', value: 'x' })).toString('base64');
  hooks.handle(`/obj-${id}`, (review) => admissionResponse(review, { allowed: true, patchType: 'JSONPatch', patch: notAPatch }));
  await install(
    ns,
    { path: `/obj-${id}`, probeLabels: { policy: 'ignore' } },
    webhookConfiguration('Mutating', `obj-${id}`, { path: `/obj-${id}`, objectSelector: { matchLabels: { policy: 'fail' } } }, { path: `/obj-${id}`, failurePolicy: 'Ignore', objectSelector: { matchLabels: { policy: 'ignore' } } }),
  );
  const failed = await server.request('POST', widgetsPath(ns), { body: widget('f', { labels: { policy: 'fail' } }) });
  expectStatus(t, failed, {
    code: 500,
    reason: 'InternalError',
    message: `Internal error occurred: failed calling webhook "hook-0.obj-${id}.kapi.test": received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch`,
  });
  const ignored = await server.request('POST', widgetsPath(ns), { body: widget('i', { labels: { policy: 'ignore' } }) });
  t.is(ignored.status, 201, ignored.text);
  t.is(ignored.body.spec.color, 'red');
});

test('a patch that breaks the object is refused by the validation that follows (422)', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/neg-${id}`, patch([{ op: 'replace', path: '/spec/replicas', value: -3 }]));
  await install(ns, `/neg-${id}`, webhookConfiguration('Mutating', `neg-${id}`, { path: `/neg-${id}` }));
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w') });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.regex(res.body.message, /spec\.replicas: Invalid value: -3/);
});

test('a mutating webhook may not patch a DELETE; a dry run reaches webhooks with dryRun true and stores nothing', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/del-${id}`, patch([{ op: 'add', path: '/metadata/labels', value: { x: 'y' } }]));
  const rules = [{ operations: ['CREATE', 'DELETE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }];
  await install(ns, `/del-${id}`, webhookConfiguration('Mutating', `del-${id}`, { path: `/del-${id}`, rules, sideEffects: 'NoneOnDryRun' }));
  const dry = await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget('dry') });
  t.is(dry.status, 201, dry.text);
  t.deepEqual(dry.body.metadata.labels, { x: 'y' });
  t.true(reviewsOf(`/del-${id}`, 'dry')[0].body.request.dryRun);
  t.deepEqual(reviewsOf(`/del-${id}`, 'dry')[0].body.request.options.dryRun, ['All']);
  t.is((await server.request('GET', widgetsPath(ns, 'dry'))).status, 404);

  t.is((await server.request('POST', widgetsPath(ns), { body: widget('w') })).status, 201);
  const del = await server.request('DELETE', widgetsPath(ns, 'w'));
  expectStatus(t, del, {
    code: 500,
    reason: 'InternalError',
    message: `Internal error occurred: admission webhook "hook-0.del-${id}.kapi.test" attempted to modify the object, which is not supported for this operation`,
  });
  t.is((await server.request('GET', widgetsPath(ns, 'w'))).status, 200);
});

test('a webhook matched through an equivalent version patches that version; the request gets its own version back', async (t) => {
  const id = suffix();
  const crd = await widgetsCrd();
  const plural = `things${id}`;
  crd.metadata.name = `${plural}.example.com`;
  crd.spec.names = { plural, singular: `thing${id}`, kind: `Thing${id}`, listKind: `Thing${id}List` };
  crd.spec.versions = [crd.spec.versions[0], { ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: false }];
  await installCrd(server, crd);
  const ns = await namespace(server);
  hooks.handle(`/v1only-${id}`, (review, path) => {
    const seenVersion = review.request.object.apiVersion.split('/')[1];
    return patch([{ op: 'add', path: '/metadata/labels', value: { 'patched-in': seenVersion } }])(review, path);
  });
  const config = webhookConfiguration('Mutating', `eqv-${id}`, {
    path: `/v1only-${id}`,
    rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: [plural] }],
    namespaceSelector: { matchLabels: { 'kapi.test/ns': ns } },
  })(hooks);
  t.is((await server.request('POST', webhookConfigurationsPath('Mutating'), { body: config })).status, 201);
  const path = `/apis/example.com/v2/namespaces/${ns}/${plural}`;
  const body = { apiVersion: 'example.com/v2', kind: `Thing${id}`, metadata: { name: 't' }, spec: { color: 'red', replicas: 1 } };
  const res = await server.waitFor(async () => {
    const r = await server.request('POST', `${path}?dryRun=All`, { body });
    return r.status === 201 && r.body.metadata.labels ? r : undefined;
  });
  t.is(res.body.apiVersion, 'example.com/v2');
  t.deepEqual(res.body.metadata.labels, { 'patched-in': 'v1' });
});

test("a patch leaving metadata that does not decode is kube's 500 naming the field, and nothing is stored", async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/fin-${id}`, patch([{ op: 'add', path: '/metadata/finalizers', value: { a: 'b' } }]));
  await install(ns, `/fin-${id}`, webhookConfiguration('Mutating', `fin-${id}`, { path: `/fin-${id}` }));
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w') });
  expectStatus(t, res, {
    code: 500,
    reason: 'InternalError',
    message: 'Internal error occurred: json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type []string',
  });
  t.is((await server.request('GET', widgetsPath(ns, 'w'))).status, 404);
});
