// Conversion webhooks that fail, hang, answer garbage or break the rules: every request fails with the Status
// kube-apiserver answers (500, no reason, "conversion webhook for <group>/<version>, Kind=<Kind> failed: …"), writes
// store nothing, watches end; versions that need no conversion keep working.
import test from 'ava';
import net from 'node:net';
import { createNamespace, installCrd, useTestServer, type TestResponse } from '../helpers/test-server.js';
import { startWebhookServer, type TestWebhookServer, type WebhookReply } from '../helpers/webhook-server.js';
import { convertGadget, gadget, gadgetsCrd, gadgetsGroup, gadgetsPath, reviewAnswer } from '../helpers/conversion-webhook.js';

// The documented test knob for kube's 30 s conversion webhook timeout (read when a CRD's converter is made).
process.env['KAPI_CONVERSION_WEBHOOK_TIMEOUT_MS'] = '1000';

const server = useTestServer();
let hooks: TestWebhookServer;
const unreachableGroup = 'unreachable.example.com';
const serviceGroup = 'service.example.com';
let closedPort = 0;

/** How the webhook misbehaves, chosen by the objects' namespace (`<behaviour>-<random>`). */
const behaviours: Record<string, (review: any) => WebhookReply> = {
  garbage: () => ({ raw: 'garbage' }),
  uid: (review) => ({ json: { ...(reviewAnswer(review, []) as any).json, response: { uid: 'bogus', result: { status: 'Success' } } } }),
  failure: (review) => reviewAnswer(review, [], { status: 'Failure', message: 'custom webhook conversion error' }),
  bare: (review) => reviewAnswer(review, [], { status: 'Failure' }),
  count: (review) => reviewAnswer(review, []),
  version: (review) => reviewAnswer(review, review.request.objects.map((o: any) => convertGadget(o, o.apiVersion))),
  kind: (review) => reviewAnswer(review, review.request.objects.map((o: any) => ({ ...convertGadget(o, review.request.desiredAPIVersion), kind: 'Other' }))),
  label: (review) =>
    reviewAnswer(
      review,
      review.request.objects.map((o: any) => ({ ...convertGadget(o, review.request.desiredAPIVersion), metadata: { ...o.metadata, labels: { 'bad key': 'x' } } })),
    ),
  error: () => ({ status: 500, headers: { 'content-type': 'text/plain' }, raw: 'boom' }),
  hang: () => 'hang',
  close: () => 'close',
};

test.before(async () => {
  hooks = await startWebhookServer();
  hooks.handle('/convert', (review) => {
    const ns: string = review?.request?.objects?.[0]?.metadata?.namespace ?? '';
    const behave = behaviours[ns.split('-')[0]!];
    return behave ? behave(review) : reviewAnswer(review, review.request.objects.map((o: any) => convertGadget(o, review.request.desiredAPIVersion)));
  });
  closedPort = await freePort();
  await installCrd(server, gadgetsCrd({ url: hooks.url('/convert'), caBundle: hooks.caBundle }));
  await installCrd(server, gadgetsCrd({ url: `https://127.0.0.1:${closedPort}/convert`, caBundle: hooks.caBundle }, { group: unreachableGroup }));
  await installCrd(server, gadgetsCrd({ service: { namespace: 'default', name: 'converter', path: '/convert' }, caBundle: hooks.caBundle }, { group: serviceGroup }));
});

test.after.always(async () => {
  await hooks?.close();
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** kube's answer to a failed conversion: 500 with the error text and no reason. */
function expectFailure(t: any, res: TestResponse, message: string | RegExp): void {
  t.is(res.status, 500, res.text);
  t.like(res.body, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500 });
  t.false('reason' in res.body, 'kube leaves StatusReasonUnknown out');
  if (typeof message === 'string') t.is(res.body.message, message);
  else t.regex(res.body.message, message);
}

/** A namespace for a behaviour, holding g1 created in v1 (so reading it in v2 needs the webhook). */
async function setUp(t: any, behaviour: string, group = gadgetsGroup): Promise<string> {
  const ns = await createNamespace(server, behaviour);
  const res = await server.request('POST', gadgetsPath('v1', ns, undefined, group), { body: gadget('v1', 'g1', 'red', group) });
  t.is(res.status, 201, res.text);
  return ns;
}

const failed = (group = gadgetsGroup, version = 'v1') => `conversion webhook for ${group}/${version}, Kind=Gadget failed: `;

test('a body that is not JSON', async (t) => {
  const ns = await setUp(t, 'garbage');
  expectFailure(t, await server.request('GET', gadgetsPath('v2', ns, 'g1')), `${failed()}couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value`);
});

test('an answer for another uid', async (t) => {
  const ns = await setUp(t, 'uid');
  const res = await server.request('GET', gadgetsPath('v2', ns, 'g1'));
  const sent = hooks.requestsTo('/convert').find((r) => r.body.request.objects[0].metadata.namespace === ns)!;
  expectFailure(t, res, `${failed()}expected response.uid="${sent.body.request.uid}", got "bogus"`);
});

test('a Failure result: its message, or kube text without one', async (t) => {
  expectFailure(t, await server.request('GET', gadgetsPath('v2', await setUp(t, 'failure'), 'g1')), `${failed()}custom webhook conversion error`);
  expectFailure(t, await server.request('GET', gadgetsPath('v2', await setUp(t, 'bare'), 'g1')), `${failed()}response.result.status was 'Failure', not 'Success'`);
});

test('too few converted objects', async (t) => {
  const ns = await setUp(t, 'count');
  expectFailure(t, await server.request('GET', gadgetsPath('v2', ns, 'g1')), `conversion webhook for ${gadgetsGroup}/v1, Kind=Gadget returned 0 objects, expected 1`);
});

test('converted objects in the wrong version or of another kind', async (t) => {
  expectFailure(
    t,
    await server.request('GET', gadgetsPath('v2', await setUp(t, 'version'), 'g1')),
    `conversion webhook for ${gadgetsGroup}/v1, Kind=Gadget returned invalid object at index 0: invalid groupVersion (expected ${gadgetsGroup}/v2, received ${gadgetsGroup}/v1)`,
  );
  expectFailure(
    t,
    await server.request('GET', gadgetsPath('v2', await setUp(t, 'kind'), 'g1')),
    `conversion webhook for ${gadgetsGroup}/v1, Kind=Gadget returned invalid object at index 0: invalid kind (expected Gadget, received Other)`,
  );
});

test('invalid labels from the webhook', async (t) => {
  const ns = await setUp(t, 'label');
  expectFailure(
    t,
    await server.request('GET', gadgetsPath('v2', ns, 'g1')),
    /^conversion webhook for convert\.example\.com\/v1, Kind=Gadget returned invalid metadata: metadata\.labels: Invalid value: "bad key": name part must consist of alphanumeric characters/,
  );
});

test('an HTTP error answer', async (t) => {
  const ns = await setUp(t, 'error');
  expectFailure(t, await server.request('GET', gadgetsPath('v2', ns, 'g1')), `${failed()}an error on the server ("boom") has prevented the request from succeeding`);
});

test('a webhook that does not answer in time, or closes the connection', async (t) => {
  const hang = await setUp(t, 'hang');
  const started = Date.now();
  expectFailure(
    t,
    await server.request('GET', gadgetsPath('v2', hang, 'g1')),
    `${failed()}Post "${hooks.url('/convert')}?timeout=1s": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
  );
  t.true(Date.now() - started < 5000);
  expectFailure(t, await server.request('GET', gadgetsPath('v2', await setUp(t, 'close'), 'g1')), `${failed()}Post "${hooks.url('/convert')}?timeout=1s": EOF`);
});

test('an unreachable webhook', async (t) => {
  const ns = await setUp(t, 'unreachable', unreachableGroup);
  expectFailure(
    t,
    await server.request('GET', gadgetsPath('v2', ns, 'g1', unreachableGroup)),
    `${failed(unreachableGroup)}Post "https://127.0.0.1:${closedPort}/convert?timeout=1s": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
  );
});

test("a webhook behind a Service that does not exist: kube's NotFound names the Service", async (t) => {
  const crd = await server.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${serviceGroup}`);
  t.deepEqual(crd.body.spec.conversion.webhook.clientConfig.service, { namespace: 'default', name: 'converter', path: '/convert', port: 443 });
  const ns = await setUp(t, 'service', serviceGroup);
  expectFailure(
    t,
    await server.request('GET', gadgetsPath('v2', ns, 'g1', serviceGroup)),
    `${failed(serviceGroup)}Post "https://converter.default.svc:443/convert?timeout=1s": service "converter" not found`,
  );
});

test('every verb in v2 fails; writes store nothing; v1 keeps working', async (t) => {
  const ns = await setUp(t, 'failure');
  const current = (await server.request('GET', gadgetsPath('v1', ns, 'g1'))).body;
  const message = 'custom webhook conversion error';

  expectFailure(t, await server.request('GET', gadgetsPath('v2', ns)), `${failed()}${message}`);
  expectFailure(t, await server.request('POST', gadgetsPath('v2', ns), { body: gadget('v2', 'g2', 'blue') }), `${failed(gadgetsGroup, 'v2')}${message}`);
  t.is((await server.request('GET', gadgetsPath('v1', ns, 'g2'))).status, 404, 'a failed create stores nothing');
  const dryRun = await server.request('POST', `${gadgetsPath('v2', ns)}?dryRun=All`, { body: gadget('v2', 'g3', 'blue') });
  expectFailure(t, dryRun, `${failed(gadgetsGroup, 'v2')}${message}`);

  const v2Body = { ...gadget('v2', 'g1', 'blue'), metadata: { name: 'g1', resourceVersion: current.metadata.resourceVersion } };
  expectFailure(t, await server.request('PUT', gadgetsPath('v2', ns, 'g1'), { body: v2Body }), `${failed()}${message}`);
  const patch = { body: { spec: { colour: 'blue' } }, contentType: 'application/merge-patch+json' };
  expectFailure(t, await server.request('PATCH', gadgetsPath('v2', ns, 'g1'), patch), `${failed()}${message}`);
  expectFailure(
    t,
    await server.request('PATCH', `${gadgetsPath('v2', ns, 'g1')}?fieldManager=x`, { rawBody: JSON.stringify(gadget('v2', 'g1', 'blue')), contentType: 'application/apply-patch+yaml' }),
    `${failed()}${message}`,
  );
  expectFailure(t, await server.request('DELETE', gadgetsPath('v2', ns, 'g1')), `${failed()}${message}`);

  const after = await server.request('GET', gadgetsPath('v1', ns, 'g1'));
  t.is(after.status, 200);
  t.deepEqual(after.body, current, 'nothing was written');
  const list = await server.request('GET', gadgetsPath('v1', ns));
  t.deepEqual(
    list.body.items.map((i: any) => i.metadata.name),
    ['g1'],
  );
});

test('a watch whose events cannot be converted ends without an ERROR event', async (t) => {
  // Its initial state cannot be converted.
  const ns = await setUp(t, 'failure');
  const initial = await server.watch(`${gadgetsPath('v2', ns)}?watch=true`);
  await initial.ended;
  t.deepEqual(initial.events, []);

  // A later event cannot be converted: the events before it arrive, then the watch ends.
  const live = await createNamespace(server, 'failure');
  const w = await server.watch(`${gadgetsPath('v2', live)}?watch=true&allowWatchBookmarks=true`);
  const res = await server.request('POST', gadgetsPath('v1', live), { body: gadget('v1', 'g1', 'red') });
  t.is(res.status, 201);
  await w.ended;
  t.deepEqual(w.events.filter((e) => e.type !== 'BOOKMARK'), []);
});

test('CRDs with invalid conversion settings are refused with kube 422s', async (t) => {
  const post = (conversion: unknown) => {
    const crd = gadgetsCrd({}, { group: 'invalid.example.com' });
    crd.spec.conversion = conversion;
    return server.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
  };
  const prefix = 'CustomResourceDefinition.apiextensions.k8s.io "gadgets.invalid.example.com" is invalid: ';

  const noWebhook = await post({ strategy: 'Webhook' });
  t.is(noWebhook.status, 422);
  t.is(
    noWebhook.body.message,
    `${prefix}[spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook, spec.conversion.conversionReviewVersions: Required value]`,
  );
  t.deepEqual(noWebhook.body.details.causes, [
    { reason: 'FieldValueRequired', message: 'Required value: required when strategy is set to Webhook', field: 'spec.conversion.webhookClientConfig' },
    { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.conversion.conversionReviewVersions' },
  ]);

  const http = await post({ strategy: 'Webhook', webhook: { clientConfig: { url: 'http://127.0.0.1/convert' }, conversionReviewVersions: ['v2'] } });
  t.is(http.status, 422);
  t.is(
    http.body.message,
    `${prefix}[spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path], spec.conversion.conversionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1]`,
  );

  const none = await post({ strategy: 'None', webhook: { clientConfig: { url: hooks.url('/convert') }, conversionReviewVersions: ['v1'] } });
  t.is(none.status, 422);
  t.is(
    none.body.message,
    `${prefix}[spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook, spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook]`,
  );

  const unknown = await post({ strategy: 'Magic' });
  t.is(unknown.status, 422);
  t.is(unknown.body.message, `${prefix}spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"`);
});
