// Webhooks that misbehave (unreachable, wrong CA, hanging, non-200, garbage, wrong kind or uid): kube's 500 under
// failurePolicy Fail, the request going on under Ignore; nothing stored when a webhook fails the request.
import test from 'ava';
import { expectStatus, suffix, useTestServer, widget, widgetsPath, type TestServer } from '../helpers/test-server.js';
import {
  admissionResponse,
  allow,
  createWebhookTestNamespace,
  unrelatedCaBundle,
  webhookConfiguration,
  webhookConfigurationsPath,
  useWebhookServer,
  type TestWebhook,
  type WebhookHandler,
} from '../helpers/webhook-server.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });
const hooks = useWebhookServer();

const namespace = (s: TestServer) => createWebhookTestNamespace(s, 'fwh');

/**
 * A validating webhook (in its own namespace) that misbehaves for widgets named `bad` and allows everything else,
 * installed twice: failurePolicy Fail for objects labelled `policy: fail`, Ignore for `policy: ignore`. Resolves
 * once it is called.
 */
async function misbehaving(handler: WebhookHandler, overrides: Partial<TestWebhook> = {}): Promise<{ ns: string; hook: string; url: string }> {
  const id = suffix();
  const ns = await namespace(server);
  const path = `/h-${id}`;
  hooks.handle(path, (review, p) => (review?.request?.name === 'bad' ? handler(review, p) : allow(review, p)));
  const selector = (policy: string) => ({ matchLabels: { policy } });
  const config = webhookConfiguration(
    'Validating',
    `f-${id}`,
    { path, failurePolicy: 'Fail', objectSelector: selector('fail'), ...overrides },
    { path, failurePolicy: 'Ignore', objectSelector: selector('ignore'), ...overrides },
  )(hooks);
  for (const h of config.webhooks) h.namespaceSelector = { matchLabels: { 'kapi.test/ns': ns } };
  const res = await server.request('POST', webhookConfigurationsPath('Validating'), { body: config });
  if (res.status !== 201) throw new Error(res.text);
  // wait until the configuration is in force: a fail-policy object is refused or reaches the webhook
  await server.waitFor(async () => {
    const before = hooks.requestsTo(path).length;
    const probe = await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget(`probe-${suffix()}`, { labels: { policy: 'fail' } }) });
    return probe.status !== 201 || hooks.requestsTo(path).length > before;
  });
  return { ns, hook: config.webhooks[0].name, url: config.webhooks[0].clientConfig.url };
}

/** Creates `bad` under both policies: the Fail one must be kube's 500 with `reason`, the Ignore one must be stored. */
async function expectFailure(t: any, setup: { ns: string; hook: string }, reason: string | RegExp): Promise<void> {
  const failed = await server.request('POST', widgetsPath(setup.ns), { body: widget('bad', { labels: { policy: 'fail' } }) });
  expectStatus(t, failed, { code: 500, reason: 'InternalError' });
  const prefix = `Internal error occurred: failed calling webhook "${setup.hook}": `;
  if (typeof reason === 'string') t.is(failed.body.message, prefix + reason);
  else {
    t.true(failed.body.message.startsWith(prefix), failed.body.message);
    t.regex(failed.body.message.slice(prefix.length), reason);
  }
  t.deepEqual(failed.body.details, { causes: [{ message: failed.body.message.slice('Internal error occurred: '.length) }] });
  t.is((await server.request('GET', widgetsPath(setup.ns, 'bad'))).status, 404, 'nothing stored');
  const ignored = await server.request('POST', widgetsPath(setup.ns), { body: widget('bad', { labels: { policy: 'ignore' } }) });
  t.is(ignored.status, 201, `failurePolicy Ignore: ${ignored.text}`);
  t.is(ignored.headers.warning, undefined, 'kube adds no warning when it fails open');
}

test('a hanging webhook fails the request after its timeoutSeconds', async (t) => {
  const setup = await misbehaving(() => 'hang', { timeoutSeconds: 1 });
  const started = Date.now();
  await expectFailure(t, setup, `failed to call webhook: Post "${setup.url}?timeout=1s": context deadline exceeded`);
  const elapsed = Date.now() - started;
  t.true(elapsed >= 2000 && elapsed < 6000, `two calls of about 1 s each, took ${elapsed} ms`);
});

test('an unreachable webhook', async (t) => {
  const setup = await misbehaving(allow, {});
  // point the configuration at a closed port: recreate it with the url changed
  const configs = (await server.request('GET', webhookConfigurationsPath('Validating'))).body.items;
  const config = configs.find((c: any) => c.webhooks[0].name === setup.hook);
  const closed = 'https://127.0.0.1:1/closed';
  for (const h of config.webhooks) h.clientConfig.url = closed;
  t.is((await server.request('PUT', webhookConfigurationsPath('Validating', config.metadata.name), { body: config })).status, 200);
  await server.waitFor(async () => (await server.request('POST', `${widgetsPath(setup.ns)}?dryRun=All`, { body: widget('x', { labels: { policy: 'fail' } }) })).status === 500);
  await expectFailure(t, setup, `failed to call webhook: Post "${closed}?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused`);
});

test('a webhook whose certificate the caBundle does not trust', async (t) => {
  const setup = await misbehaving(allow, { clientConfig: { url: hooks.url('/wrong-ca'), caBundle: await unrelatedCaBundle() } });
  await expectFailure(t, setup, `failed to call webhook: Post "${hooks.url('/wrong-ca')}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
});

test('a non-200 answer: a Status body gives its message, other bodies client-go\'s text', async (t) => {
  const status = await misbehaving(() => ({ status: 403, json: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'go away', code: 403 } }));
  await expectFailure(t, status, 'failed to call webhook: go away');
  const text = await misbehaving(() => ({ status: 500, headers: { 'content-type': 'text/plain' }, raw: 'boom\n' }));
  await expectFailure(t, text, 'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding');
  const notFound = await misbehaving(() => ({ status: 404, raw: 'nope' }));
  await expectFailure(t, notFound, 'failed to call webhook: the server could not find the requested resource');
});

test('a garbage or empty body', async (t) => {
  const garbage = await misbehaving(() => ({ headers: { 'content-type': 'application/json' }, raw: '{"apiVersion": admission' }));
  await expectFailure(t, garbage, "failed to call webhook: couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value");
  const empty = await misbehaving(() => ({ raw: '' }));
  await expectFailure(t, empty, 'failed to call webhook: 0-length response with status code: 200 and content type: application/json');
  const text = await misbehaving(() => ({ headers: { 'content-type': 'text/plain' }, raw: 'OK' }));
  await expectFailure(
    t,
    text,
    'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
  );
});

test('an answer of the wrong kind, version or uid, or without a response', async (t) => {
  const noKind = await misbehaving((review) => ({ json: { response: { uid: review.request.uid, allowed: true } } }));
  await expectFailure(t, noKind, 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=');
  const wrongUid = await misbehaving((review) => admissionResponse({ ...review, request: { uid: 'not-the-uid' } }, { allowed: true }));
  await expectFailure(t, wrongUid, /^received invalid webhook response: expected response\.uid="[0-9a-f-]{36}", got "not-the-uid"$/);
  const v1beta1 = await misbehaving((review) => admissionResponse({ ...review, apiVersion: 'admission.k8s.io/v1beta1' }, { allowed: true }));
  await expectFailure(t, v1beta1, 'failed to call webhook: converting (*v1beta1.AdmissionReview) to (*v1.AdmissionReview): unknown conversion');
  const absent = await misbehaving(() => ({ json: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' } }));
  await expectFailure(t, absent, 'received invalid webhook response: webhook response was absent');
  const badType = await misbehaving((review) => admissionResponse(review, { allowed: 'yes' }));
  await expectFailure(t, badType, 'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool');
  const patching = await misbehaving((review) => admissionResponse(review, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64') }));
  await expectFailure(t, patching, 'received invalid webhook response: validating webhook may not return response.patch');
});

test('a webhook speaking only AdmissionReview v1beta1 gets and may answer v1beta1', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/beta-${id}`, () => ({ json: { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { allowed: false, status: { message: 'old school' } } } }));
  const config = webhookConfiguration('Validating', `beta-${id}`, { path: `/beta-${id}`, admissionReviewVersions: ['v1beta2', 'v1beta1'] })(hooks);
  config.webhooks[0].namespaceSelector = { matchLabels: { 'kapi.test/ns': ns } };
  t.is((await server.request('POST', webhookConfigurationsPath('Validating'), { body: config })).status, 201);
  const res = await server.waitFor(async () => {
    const r = await server.request('POST', widgetsPath(ns), { body: widget('w') });
    return r.status === 400 ? r : undefined;
  });
  t.is(res.body.message, `admission webhook "hook-0.beta-${id}.kapi.test" denied the request: old school`);
  t.is(hooks.requestsTo(`/beta-${id}`).at(-1)!.body.apiVersion, 'admission.k8s.io/v1beta1');
});
