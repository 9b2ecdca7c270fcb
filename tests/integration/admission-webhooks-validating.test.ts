// ValidatingAdmissionWebhook: real HTTPS webhooks on loopback called with an AdmissionReview v1; their verdicts,
// statuses, warnings; matching by rules, selectors and match policy; configuration changes followed from storage.
import test from 'ava';
import { expectStatus, installCrd, suffix, useTestServer, widget, widgetsCrd, widgetsPath, type TestServer } from '../helpers/test-server.js';
import {
  allow,
  deny,
  createWebhookTestNamespace,
  webhookConfiguration,
  webhookConfigurationsPath,
  useWebhookServer,
  limitedTo,
  installWebhookConfigurations,
} from '../helpers/webhook-server.js';
import { mapPath, mapbPath, mutatingBinding, mutatingPolicy } from '../helpers/map.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });
const hooks = useWebhookServer();

/** A namespace labelled `kapi.test/ns: <name>` (and `labels`), so a test's webhooks see only its own namespace. */
const namespace = (s: TestServer, labels: Record<string, string> = {}) => createWebhookTestNamespace(s, 'vwh', labels);

const onlyIn = (config: ReturnType<typeof webhookConfiguration>, ns: string) => limitedTo(config, hooks, ns);

/** Creates a validating configuration (for `ns`) and waits until a dry-run create in `ns` reaches `path`. */
async function install(config: ReturnType<typeof webhookConfiguration>, ns: string, path: string, probeLabels: Record<string, string> = {}): Promise<any> {
  const [body] = await installWebhookConfigurations(server, hooks, 'Validating', ns, { path, labels: probeLabels }, config);
  return body;
}

const reviewsOf = (path: string, name: string) => hooks.requestsTo(path).filter((r) => r.body?.request?.name === name);

test('a denial fails the request with the webhook message and code; the AdmissionReview v1 is what kube sends', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/deny-${id}`, deny('red widgets are not allowed', { code: 403, reason: 'Forbidden' }));
  await install(webhookConfiguration('Validating', `deny-${id}`, { path: `/deny-${id}` }), ns, `/deny-${id}`);

  const res = await server.request('POST', widgetsPath(ns), { body: widget('w1') });
  expectStatus(t, res, { code: 403, reason: 'Forbidden', message: `admission webhook "hook-0.deny-${id}.kapi.test" denied the request: red widgets are not allowed` });
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).status, 404, 'nothing stored');

  const [call] = reviewsOf(`/deny-${id}`, 'w1');
  t.is(call.query.timeout, '10s');
  t.is(call.headers['content-type'], 'application/json');
  const review = call.body;
  t.is(review.apiVersion, 'admission.k8s.io/v1');
  t.is(review.kind, 'AdmissionReview');
  t.regex(review.request.uid, /^[0-9a-f-]{36}$/);
  t.like(review.request, {
    kind: { group: 'example.com', version: 'v1', kind: 'Widget' },
    resource: { group: 'example.com', version: 'v1', resource: 'widgets' },
    requestKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
    requestResource: { group: 'example.com', version: 'v1', resource: 'widgets' },
    name: 'w1',
    namespace: ns,
    operation: 'CREATE',
    userInfo: { username: 'kapi-admin' },
    oldObject: null,
    dryRun: false,
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
  });
  t.like(review.request.object, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: ns }, spec: { color: 'red', replicas: 1 } });
  t.false('subResource' in review.request);
});

test('a denial without a code is a 400; without a message the reason is used, without either kube says so', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/bare-${id}`, (review) => {
    const name = review.request.name;
    const status = name === 'reason' ? { reason: 'NotGreen' } : name === 'teapot' ? { code: 200, message: 'fine?' } : {};
    return { json: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, status } } };
  });
  await install(webhookConfiguration('Validating', `bare-${id}`, { path: `/bare-${id}` }), ns, `/bare-${id}`);
  const hook = `hook-0.bare-${id}.kapi.test`;

  const none = await server.request('POST', widgetsPath(ns), { body: widget('none') });
  t.is(none.status, 400);
  t.is(none.body.message, `admission webhook "${hook}" denied the request without explanation`);
  t.false('reason' in none.body, 'an empty reason is omitted');
  const reason = await server.request('POST', widgetsPath(ns), { body: widget('reason') });
  t.is(reason.status, 400);
  t.is(reason.body.reason, 'NotGreen');
  t.is(reason.body.message, `admission webhook "${hook}" denied the request: NotGreen`);
  const low = await server.request('POST', widgetsPath(ns), { body: widget('teapot') });
  t.is(low.status, 400, 'codes below 400 become 400');
  t.is(low.body.message, `admission webhook "${hook}" denied the request: fine?`);
});

test('an allowing webhook lets the write through with its warnings', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/warn-${id}`, (review) => ({
    json: {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: review.request.uid, allowed: true, warnings: ['replicas will be capped', 'blue is nicer'], auditAnnotations: { checked: 'yes' } },
    },
  }));
  await install(webhookConfiguration('Validating', `warn-${id}`, { path: `/warn-${id}` }), ns, `/warn-${id}`);
  const res = await server.request('POST', widgetsPath(ns), { body: widget('warned') });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.headers.warning, '299 - "replicas will be capped", 299 - "blue is nicer"');
});

test('matching webhooks are called in parallel and any denial fails the request', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  // each of the two answers only once the other has been called: sequential calls would both time out
  const arrived: Record<string, () => void> = {};
  const both = { a: new Promise<void>((r) => (arrived.a = r)), b: new Promise<void>((r) => (arrived.b = r)) };
  const meetThen = (me: 'a' | 'b', other: 'a' | 'b', answer: typeof allow) => async (review: any, path: string) => {
    if (review.request.name !== 'met') return allow(review, path);
    arrived[me]();
    await both[other];
    return answer(review, path);
  };
  hooks.handle(`/pa-${id}`, meetThen('a', 'b', allow));
  hooks.handle(`/pb-${id}`, meetThen('b', 'a', deny('b says no')));
  await install(
    webhookConfiguration('Validating', `par-${id}`, { path: `/pa-${id}`, timeoutSeconds: 3 }, { path: `/pb-${id}`, timeoutSeconds: 3 }),
    ns,
    `/pb-${id}`,
  );
  const res = await server.request('POST', widgetsPath(ns), { body: widget('met') });
  t.is(res.status, 400, res.text);
  t.is(res.body.message, `admission webhook "hook-1.par-${id}.kapi.test" denied the request: b says no`);
});

test('rules select operations, resources and subresources; UPDATE and DELETE carry the old object', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/ops-${id}`, allow);
  const rules = [
    { operations: ['UPDATE', 'DELETE'], apiGroups: ['example.com'], apiVersions: ['*'], resources: ['widgets', 'widgets/status'] },
    { operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: 'Namespaced' },
  ];
  await install(webhookConfiguration('Validating', `ops-${id}`, { path: `/ops-${id}`, rules }), ns, `/ops-${id}`);
  const created = (await server.request('POST', widgetsPath(ns), { body: widget('w') })).body;
  const updated = await server.request('PUT', widgetsPath(ns, 'w'), { body: { ...created, spec: { color: 'blue', replicas: 2 } } });
  t.is(updated.status, 200, updated.text);
  const status = await server.request('PUT', `${widgetsPath(ns, 'w')}/status`, { body: { ...updated.body, status: { ready: true } } });
  t.is(status.status, 200, status.text);
  const del = await server.request('DELETE', widgetsPath(ns, 'w'));
  t.is(del.status, 200, del.text);

  const requests = reviewsOf(`/ops-${id}`, 'w').map((r) => r.body.request);
  t.deepEqual(
    requests.map((r) => `${r.operation}${r.subResource ? `/${r.subResource}` : ''}`),
    ['CREATE', 'UPDATE', 'UPDATE/status', 'DELETE'],
  );
  const [, update, statusUpdate, remove] = requests;
  t.is(update.oldObject.spec.color, 'red');
  t.is(update.object.spec.color, 'blue');
  t.is(update.options.kind, 'UpdateOptions');
  t.is(statusUpdate.requestSubResource, 'status');
  t.deepEqual(statusUpdate.object.status, { ready: true });
  t.is(remove.object, null);
  t.is(remove.oldObject.spec.color, 'blue');
  t.is(remove.options.kind, 'DeleteOptions');
});

test('a Cluster-scoped rule does not match namespaced widgets; admission configuration itself is never sent', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/scope-${id}`, deny('no'));
  const rules = [
    { operations: ['*'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: 'Cluster' },
    { operations: ['*'], apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], resources: ['*'] },
  ];
  const res = await server.request('POST', webhookConfigurationsPath('Validating'), { body: onlyIn(webhookConfiguration('Validating', `scope-${id}`, { path: `/scope-${id}`, rules }), ns) });
  t.is(res.status, 201, res.text);
  await new Promise((r) => setTimeout(r, 300));
  t.is((await server.request('POST', widgetsPath(ns), { body: widget('free') })).status, 201);
  const other = await server.request('POST', webhookConfigurationsPath('Validating'), {
    body: onlyIn(webhookConfiguration('Validating', `other-${id}`, { path: `/nowhere-${id}` }), ns),
  });
  t.is(other.status, 201, other.text);
  t.is((await server.request('DELETE', webhookConfigurationsPath('Validating', `other-${id}`))).status, 200);
  // nor are mutating admission policies and their bindings
  t.is((await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`scope-${id}`) })).status, 201);
  t.is((await server.request('POST', mapbPath('v1'), { body: mutatingBinding(`scope-${id}`, `scope-${id}`) })).status, 201);
  t.is(hooks.requestsTo(`/scope-${id}`).length, 0);
});

test('objectSelector and namespaceSelector decide which objects a webhook sees', async (t) => {
  const id = suffix();
  const watched = await namespace(server, { team: `t-${id}` });
  const other = await namespace(server);
  hooks.handle(`/sel-${id}`, deny('selected'));
  const selected = { namespaceSelector: { matchLabels: { team: `t-${id}` } }, objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] } };
  await install(webhookConfiguration('Validating', `sel-${id}`, { path: `/sel-${id}`, ...selected }), watched, `/sel-${id}`);
  t.is((await server.request('POST', widgetsPath(watched), { body: widget('w') })).status, 400);
  t.is((await server.request('POST', widgetsPath(watched), { body: widget('skipped', { labels: { skip: 'yes' } }) })).status, 201);
  const elsewhere = await server.request('POST', widgetsPath(other), { body: widget('w') });
  t.is(elsewhere.status, 201, elsewhere.text);
  t.is(reviewsOf(`/sel-${id}`, 'skipped').length, 0);
});

test('a deleted configuration stops being called; an updated one is followed', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/gone-${id}`, deny('still here'));
  const config = await install(webhookConfiguration('Validating', `gone-${id}`, { path: `/gone-${id}` }), ns, `/gone-${id}`);
  t.is((await server.request('POST', widgetsPath(ns), { body: widget('a') })).status, 400);

  const stored = (await server.request('GET', webhookConfigurationsPath('Validating', config.metadata.name))).body;
  stored.webhooks[0].rules = [{ operations: ['DELETE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }];
  t.is((await server.request('PUT', webhookConfigurationsPath('Validating', config.metadata.name), { body: stored })).status, 200);
  await server.waitFor(async () => (await server.request('POST', widgetsPath(ns), { body: widget('b') })).status === 201);
  const refused = await server.request('DELETE', widgetsPath(ns, 'b'));
  t.is(refused.status, 400, 'now deletes are checked');
  t.is(refused.body.message, `admission webhook "hook-0.gone-${id}.kapi.test" denied the request: still here`);

  t.is((await server.request('DELETE', webhookConfigurationsPath('Validating', config.metadata.name))).status, 200);
  await server.waitFor(async () => (await server.request('DELETE', widgetsPath(ns, 'b'))).status === 200);
  const calls = hooks.requestsTo(`/gone-${id}`).length;
  t.is((await server.request('POST', widgetsPath(ns), { body: widget('c') })).status, 201);
  t.is(hooks.requestsTo(`/gone-${id}`).length, calls);
});

test('matchPolicy Equivalent calls a webhook for another version of the resource, in the version its rule names', async (t) => {
  const id = suffix();
  const crd = await widgetsCrd();
  const plural = `gadgets${id}`;
  crd.metadata.name = `${plural}.example.com`;
  crd.spec.names = { plural, singular: `gadget${id}`, kind: `Gadget${id}`, listKind: `Gadget${id}List` };
  const v1 = crd.spec.versions[0];
  crd.spec.versions = [v1, { ...structuredClone(v1), name: 'v2', storage: false }];
  await installCrd(server, crd);
  const ns = await namespace(server);
  hooks.handle(`/eq-${id}`, allow);
  hooks.handle(`/exact-${id}`, allow);
  const rules = [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: [plural] }];
  await server.request('POST', webhookConfigurationsPath('Validating'), {
    body: onlyIn(webhookConfiguration('Validating', `eq-${id}`, { path: `/eq-${id}`, rules }, { path: `/exact-${id}`, rules, matchPolicy: 'Exact' }), ns),
  });
  const path = `/apis/example.com/v2/namespaces/${ns}/${plural}`;
  const body = (name: string) => ({ apiVersion: 'example.com/v2', kind: `Gadget${id}`, metadata: { name }, spec: { color: 'red', replicas: 1 } });
  await server.waitFor(async () => (await server.request('POST', path, { body: body(`g-${suffix()}`) })).status === 201 && hooks.requestsTo(`/eq-${id}`).length > 0);
  const res = await server.request('POST', path, { body: body('g') });
  t.is(res.status, 201, res.text);
  const [review] = reviewsOf(`/eq-${id}`, 'g');
  t.like(review.body.request, {
    kind: { group: 'example.com', version: 'v1', kind: `Gadget${id}` },
    resource: { group: 'example.com', version: 'v1', resource: plural },
    requestKind: { group: 'example.com', version: 'v2', kind: `Gadget${id}` },
    requestResource: { group: 'example.com', version: 'v2', resource: plural },
  });
  t.is(review.body.request.object.apiVersion, 'example.com/v1');
  t.is(hooks.requestsTo(`/exact-${id}`).length, 0, 'Exact does not match v2');
});
