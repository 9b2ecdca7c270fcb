// Admission and conversion webhooks configured with `clientConfig.service`, reached as kube-apiserver with
// `--enable-aggregator-routing` reaches them: the URL (and the certificate name verified) is
// `https://<name>.<namespace>.svc:<port><path>`, the connection goes to an address of the Service's Endpoints (or an
// ExternalName's host); a Service that cannot be reached is a failed webhook call, with kube's text.
import test from 'ava';
import { createNamespace, expectStatus, installCrd, suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import {
  allow,
  createWebhookTestNamespace,
  deny,
  installWebhookConfigurations,
  patch,
  routeServiceToWebhookServer,
  useWebhookServer,
  webhookConfiguration,
  webhookConfigurationsPath,
  webhookServicesNamespace,
} from '../helpers/webhook-server.js';
import { gadget, gadgetConverter, gadgetsCrd, gadgetsPath } from '../helpers/conversion-webhook.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });
const hooks = useWebhookServer();

test('a validating webhook behind a selectorless Service is called at <name>.<namespace>.svc through its Endpoints', async (t) => {
  const id = suffix();
  const ns = await createWebhookTestNamespace(server, 'svc-validate');
  const path = `/validate-${id}`;
  hooks.handle(path, (review) => (review.request.name === 'refused' ? deny('refused through a Service', { code: 403, reason: 'Forbidden' })(review, path) : allow(review, path)));
  const service = await routeServiceToWebhookServer(server, hooks, `validator-${id}`, path);
  await installWebhookConfigurations(server, hooks, 'Validating', ns, { path }, webhookConfiguration('Validating', `svc-v-${id}`, { path, clientConfig: { service, caBundle: hooks.caBundle } }));

  const refused = await server.request('POST', widgetsPath(ns), { body: widget('refused') });
  expectStatus(t, refused, { code: 403, reason: 'Forbidden', message: `admission webhook "hook-0.svc-v-${id}.kapi.test" denied the request: refused through a Service` });
  const created = await server.request('POST', widgetsPath(ns), { body: widget('fine') });
  t.is(created.status, 201, created.text);

  const call = hooks.requestsTo(path).at(-1)!;
  t.is(call.headers.host, `validator-${id}.${webhookServicesNamespace}.svc:443`, 'the Host is the Service name, as in the URL kube posts to');
  t.deepEqual(call.query, { timeout: '10s' });
});

test('a mutating webhook behind a Service patches the object', async (t) => {
  const id = suffix();
  const ns = await createWebhookTestNamespace(server, 'svc-mutate');
  const path = `/mutate-${id}`;
  hooks.handle(path, patch([{ op: 'add', path: '/metadata/labels', value: { mutated: 'through-service' } }]));
  const service = await routeServiceToWebhookServer(server, hooks, `mutator-${id}`, path);
  await installWebhookConfigurations(server, hooks, 'Mutating', ns, { path }, webhookConfiguration('Mutating', `svc-m-${id}`, { path, clientConfig: { service, caBundle: hooks.caBundle } }));

  const created = await server.request('POST', widgetsPath(ns), { body: widget('w1') });
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body.metadata.labels, { mutated: 'through-service' });
});

test('an ExternalName Service is reached at its host and the webhook port', async (t) => {
  const id = suffix();
  const ns = await createWebhookTestNamespace(server, 'svc-external');
  const path = `/external-${id}`;
  hooks.handle(path, deny('refused through an ExternalName', { code: 403, reason: 'Forbidden' }));
  const service = await routeServiceToWebhookServer(server, hooks, `external-${id}`, path, { externalName: 'localhost' });
  const clientConfig = { service, caBundle: hooks.caBundle };
  await installWebhookConfigurations(server, hooks, 'Validating', ns, { path }, webhookConfiguration('Validating', `svc-x-${id}`, { path, clientConfig }));

  const refused = await server.request('POST', widgetsPath(ns), { body: widget('w1') });
  expectStatus(t, refused, { code: 403, reason: 'Forbidden', message: `admission webhook "hook-0.svc-x-${id}.kapi.test" denied the request: refused through an ExternalName` });
  t.is(hooks.requestsTo(path).at(-1)!.headers.host, `external-${id}.${webhookServicesNamespace}.svc:${hooks.port}`);
});

/**
 * A validating webhook whose Service is `service` (not reachable), installed twice: failurePolicy Fail for widgets
 * labelled `policy: fail`, Ignore for `policy: ignore`.
 */
async function unreachableWebhook(service: { namespace: string; name: string; path?: string }): Promise<{ ns: string; hook: string }> {
  const id = suffix();
  const ns = await createWebhookTestNamespace(server, 'svc-fail');
  const path = service.path ?? '/never-called';
  const selector = (policy: string) => ({ matchLabels: { policy } });
  const clientConfig = { service, caBundle: hooks.caBundle };
  const config = webhookConfiguration(
    'Validating',
    `svc-f-${id}`,
    { path, clientConfig, failurePolicy: 'Fail', objectSelector: selector('fail'), namespaceSelector: { matchLabels: { 'kapi.test/ns': ns } } },
    { path, clientConfig, failurePolicy: 'Ignore', objectSelector: selector('ignore'), namespaceSelector: { matchLabels: { 'kapi.test/ns': ns } } },
  )(hooks);
  const res = await server.request('POST', webhookConfigurationsPath('Validating'), { body: config });
  if (res.status !== 201) throw new Error(res.text);
  await server.waitFor(async () => {
    const probe = await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget(`probe-${suffix()}`, { labels: { policy: 'fail' } }) });
    return probe.status === 500;
  });
  return { ns, hook: config.webhooks[0].name };
}

/** failurePolicy Fail: kube's 500 naming the call's cause; Ignore: the widget is stored. */
async function expectCallFailure(t: any, setup: { ns: string; hook: string }, cause: string): Promise<void> {
  const failed = await server.request('POST', widgetsPath(setup.ns), { body: widget('w1', { labels: { policy: 'fail' } }) });
  expectStatus(t, failed, { code: 500, reason: 'InternalError', message: `Internal error occurred: failed calling webhook "${setup.hook}": failed to call webhook: ${cause}` });
  const ignored = await server.request('POST', widgetsPath(setup.ns), { body: widget('w2', { labels: { policy: 'ignore' } }) });
  t.is(ignored.status, 201, `failurePolicy Ignore: ${ignored.text}`);
}

test('a missing Service, missing Endpoints, or Endpoints without addresses fail the call with kube\'s text', async (t) => {
  const missing = await unreachableWebhook({ namespace: webhookServicesNamespace, name: 'missing', path: '/validate' });
  await expectCallFailure(t, missing, `Post "https://missing.${webhookServicesNamespace}.svc:443/validate?timeout=10s": service "missing" not found`);

  const id = suffix();
  const ns = await createNamespace(server, 'svc-lonely');
  const svc = (name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 443 }] } });
  t.is((await server.request('POST', `/api/v1/namespaces/${ns}/services`, { body: svc(`lonely-${id}`) })).status, 201);
  const lonely = await unreachableWebhook({ namespace: ns, name: `lonely-${id}` });
  await expectCallFailure(t, lonely, `Post "https://lonely-${id}.${ns}.svc:443/?timeout=10s": endpoints "lonely-${id}" not found`);

  t.is((await server.request('POST', `/api/v1/namespaces/${ns}/services`, { body: svc(`empty-${id}`) })).status, 201);
  const endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: `empty-${id}` }, subsets: [] };
  t.is((await server.request('POST', `/api/v1/namespaces/${ns}/endpoints`, { body: endpoints })).status, 201);
  const empty = await unreachableWebhook({ namespace: ns, name: `empty-${id}`, path: '/check/' });
  await expectCallFailure(t, empty, `Post "https://empty-${id}.${ns}.svc:443/check?timeout=10s": no endpoints available for service "empty-${id}"`);
});

test('the serving certificate must be valid for <name>.<namespace>.svc', async (t) => {
  const id = suffix();
  const other = await createNamespace(server, 'svc-cert');
  const service = await routeServiceToWebhookServer(server, hooks, `hook-${id}`, '/validate', { namespace: other });
  const setup = await unreachableWebhook(service);
  await expectCallFailure(
    t,
    setup,
    `Post "https://hook-${id}.${other}.svc:443/validate?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for localhost, *.${webhookServicesNamespace}.svc, not hook-${id}.${other}.svc`,
  );
});

test('a CRD conversion webhook behind a Service converts between versions', async (t) => {
  const id = suffix();
  const group = `svc${id}.example.com`;
  hooks.handle(`/convert-${id}`, gadgetConverter());
  const service = await routeServiceToWebhookServer(server, hooks, `converter-${id}`, `/convert-${id}`);
  await installCrd(server, gadgetsCrd({ service, caBundle: hooks.caBundle }, { group }));
  const ns = await createNamespace(server, 'svc-convert');

  const created = await server.request('POST', gadgetsPath('v1', ns, undefined, group), { body: gadget('v1', 'g1', 'red', group) });
  t.is(created.status, 201, created.text);
  const read = await server.request('GET', gadgetsPath('v2', ns, 'g1', group));
  t.is(read.status, 200, read.text);
  t.is(read.body.spec.colour, 'red', 'converted by the webhook');
  t.is(hooks.requestsTo(`/convert-${id}`).at(-1)!.headers.host, `converter-${id}.${webhookServicesNamespace}.svc:443`);
});
