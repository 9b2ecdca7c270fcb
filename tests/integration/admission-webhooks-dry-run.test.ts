// Dry runs and webhook side effects: None/NoneOnDryRun webhooks are called with dryRun true; a webhook with side
// effects (Some/Unknown, which only configurations stored before kube's v1 API can carry) refuses a dry run with 400.
import test from 'ava';
import type { DependencyContainer } from 'tsyringe';
import type { Module } from '../../index.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ResourceStore } from '../../core/store/resource-store.js';
import { expectStatus, suffix, useTestServer, widget, widgetsPath, type TestServer } from '../helpers/test-server.js';
import { allow, createWebhookTestNamespace, webhookConfiguration, webhookConfigurationsPath, useWebhookServer } from '../helpers/webhook-server.js';

let container: DependencyContainer;
const capture: Module = (c) => void (container = c);
const server = useTestServer({ storage: 'memory', widgetsCrd: true, modules: [capture] });
const hooks = useWebhookServer();

const namespace = (s: TestServer) => createWebhookTestNamespace(s, 'dwh');

/** Writes a configuration straight to storage, as one created through an older API version would be. */
async function storeLegacy(kind: 'Validating' | 'Mutating', config: any): Promise<void> {
  const rt = container.resolve(Tokens.Registry).get('admissionregistration.k8s.io', `${kind.toLowerCase()}webhookconfigurations`)!;
  const meta = { ...config.metadata, uid: crypto.randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), generation: 1 };
  await new ResourceStore(container.resolve(Tokens.KVStore), rt).create({ ...config, metadata: meta });
}

for (const kind of ['Validating', 'Mutating'] as const) {
  test(`${kind}: a dry run matching a webhook with sideEffects Some is refused with 400; real writes call it`, async (t) => {
    const id = suffix();
    const ns = await namespace(server);
    hooks.handle(`/some-${id}`, allow);
    const config = webhookConfiguration(kind, `some-${id}`, { path: `/some-${id}`, sideEffects: 'Some', namespaceSelector: { matchLabels: { 'kapi.test/ns': ns } } })(hooks);
    for (const h of config.webhooks) Object.assign(h, { failurePolicy: 'Fail', matchPolicy: 'Equivalent', objectSelector: {}, timeoutSeconds: 10 });
    await storeLegacy(kind, config);
    const dry = await server.waitFor(async () => {
      const r = await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget('w') });
      return r.status === 400 ? r : undefined;
    });
    expectStatus(t, dry, { code: 400, reason: 'BadRequest', message: `admission webhook "hook-0.some-${id}.kapi.test" does not support dry run` });
    t.is(hooks.requestsTo(`/some-${id}`).length, 0, 'the webhook is not called');
    t.is((await server.request('POST', widgetsPath(ns), { body: widget('w') })).status, 201);
    t.is(hooks.requestsTo(`/some-${id}`).length, 1);

    // the stored configuration may keep its side effects on update (kube only holds updates to what it already met)
    const stored = (await server.request('GET', webhookConfigurationsPath(kind, config.metadata.name))).body;
    stored.webhooks[0].timeoutSeconds = 5;
    t.is((await server.request('PUT', webhookConfigurationsPath(kind, config.metadata.name), { body: stored })).status, 200);
  });
}

test('webhooks with sideEffects None and NoneOnDryRun are called on a dry run, told so, and nothing is stored', async (t) => {
  const id = suffix();
  const ns = await namespace(server);
  hooks.handle(`/none-${id}`, allow);
  hooks.handle(`/nodry-${id}`, allow);
  const config = webhookConfiguration('Validating', `dry-${id}`, { path: `/none-${id}`, sideEffects: 'None' }, { path: `/nodry-${id}`, sideEffects: 'NoneOnDryRun' })(hooks);
  for (const h of config.webhooks) h.namespaceSelector = { matchLabels: { 'kapi.test/ns': ns } };
  t.is((await server.request('POST', webhookConfigurationsPath('Validating'), { body: config })).status, 201);
  await server.waitFor(async () => {
    await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget('dry') });
    return hooks.requestsTo(`/nodry-${id}`).length > 0 && hooks.requestsTo(`/none-${id}`).length > 0;
  });
  for (const path of [`/none-${id}`, `/nodry-${id}`]) {
    const request = hooks.requestsTo(path)[0].body.request;
    t.true(request.dryRun);
    t.deepEqual(request.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] });
  }
  t.is((await server.request('GET', widgetsPath(ns, 'dry'))).status, 404);
});
