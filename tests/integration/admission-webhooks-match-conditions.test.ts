// Webhook matchConditions (CEL over object, oldObject, request): false skips the webhook; an evaluation error is a 403
// under failurePolicy Fail and skips the webhook under Ignore.
import test from 'ava';
import { expectStatus, suffix, useTestServer, widget, widgetsPath, type TestServer } from '../helpers/test-server.js';
import { deny, createWebhookTestNamespace, webhookConfiguration, webhookConfigurationsPath, useWebhookServer } from '../helpers/webhook-server.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });
const hooks = useWebhookServer();

const namespace = (s: TestServer) => createWebhookTestNamespace(s, 'cwh');

test('a webhook is called only when all its match conditions hold', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/mc-${id}`, deny('matched'));
  const matchConditions = [
    { name: 'is-create', expression: "request.operation == 'CREATE'" },
    { name: 'red-only', expression: "object.spec.color == 'red'" },
  ];
  const config = webhookConfiguration('Validating', `mc-${id}`, { path: `/mc-${id}`, matchConditions, namespaceSelector: { matchLabels: { 'kapi.test/ns': ns } } })(hooks);
  t.is((await server.request('POST', webhookConfigurationsPath('Validating'), { body: config })).status, 201);
  await server.waitFor(async () => (await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget('probe') })).status === 400);

  t.is((await server.request('POST', widgetsPath(ns), { body: widget('red') })).status, 400);
  const blue = await server.request('POST', widgetsPath(ns), { body: widget('blue', { spec: { color: 'blue', replicas: 1 } }) });
  t.is(blue.status, 201, blue.text);
  t.is(hooks.requestsTo(`/mc-${id}`).filter((r) => r.body.request.name === 'blue').length, 0);
});

test('a condition that fails to evaluate: 403 under Fail, webhook skipped under Ignore', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/err-${id}`, deny('called'));
  const matchConditions = [{ name: 'needs-size', expression: 'object.spec.size > 1' }];
  const selector = { matchLabels: { 'kapi.test/ns': ns } };
  const config = webhookConfiguration(
    'Validating',
    `err-${id}`,
    { path: `/err-${id}`, matchConditions, namespaceSelector: selector, objectSelector: { matchLabels: { policy: 'fail' } } },
    { path: `/err-${id}`, matchConditions, namespaceSelector: selector, failurePolicy: 'Ignore', objectSelector: { matchLabels: { policy: 'ignore' } } },
  )(hooks);
  t.is((await server.request('POST', webhookConfigurationsPath('Validating'), { body: config })).status, 201);
  const failed = await server.waitFor(async () => {
    const r = await server.request('POST', widgetsPath(ns), { body: widget('w', { labels: { policy: 'fail' } }) });
    return r.status === 403 ? r : undefined;
  });
  expectStatus(t, failed, {
    code: 403,
    reason: 'Forbidden',
    message: `widgets.example.com "w" is forbidden: expression 'object.spec.size > 1' resulted in error: no such key: size`,
  });
  t.like(failed.body.details, { name: 'w', group: 'example.com', kind: 'widgets' });
  const ignored = await server.request('POST', widgetsPath(ns), { body: widget('i', { labels: { policy: 'ignore' } }) });
  t.is(ignored.status, 201, ignored.text);
  t.is(hooks.requestsTo(`/err-${id}`).length, 0, 'the webhook is never called');
});
