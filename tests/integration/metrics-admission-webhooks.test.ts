/** apiserver_admission_webhook_admission_duration_seconds: each webhook call, by name, type, operation and whether it rejected. */
import test from 'ava';
import { suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import { allow, createWebhookTestNamespace, deny, installWebhookConfigurations, useWebhookServer, webhookConfiguration } from '../helpers/webhook-server.js';
import { parsePrometheusText, valueOf } from '../helpers/prometheus-text.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });
const hooks = useWebhookServer();

const calls = async (labels: Record<string, string>) =>
  valueOf(parsePrometheusText((await server.request('GET', '/metrics')).text), 'apiserver_admission_webhook_admission_duration_seconds_count', labels);

test('a validating webhook that denies is observed as rejected; a mutating one that allows is not', async (t) => {
  const id = suffix();
  const ns = await createWebhookTestNamespace(server, 'mwh');
  hooks.handle(`/deny-${id}`, deny('no'));
  hooks.handle(`/allow-${id}`, allow);
  await installWebhookConfigurations(server, hooks, 'Mutating', ns, { path: `/allow-${id}` }, webhookConfiguration('Mutating', `allow-${id}`, { path: `/allow-${id}` }));
  await installWebhookConfigurations(server, hooks, 'Validating', ns, { path: `/deny-${id}` }, webhookConfiguration('Validating', `deny-${id}`, { path: `/deny-${id}` }));
  const denied = { name: `hook-0.deny-${id}.kapi.test`, type: 'validating', operation: 'CREATE', rejected: 'true' };
  const allowed = { name: `hook-0.allow-${id}.kapi.test`, type: 'admit', operation: 'CREATE', rejected: 'false' };
  const [deniedBefore, allowedBefore] = [await calls(denied), await calls(allowed)];

  t.is((await server.request('POST', widgetsPath(ns), { body: widget('w1') })).status, 400);
  t.is((await calls(denied)) - deniedBefore, 1);
  t.is((await calls(allowed)) - allowedBefore, 1);
});
