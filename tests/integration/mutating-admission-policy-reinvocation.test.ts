// MutatingAdmissionPolicy reinvocation with a mutating webhook: a reinvocationPolicy IfNeeded policy runs again when
// the webhook (after it in kube's order) changed the object; a Never policy does not.
import test from 'ava';
import { useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import { installMutatingPolicy } from '../helpers/map.js';
import { allow, createWebhookTestNamespace, installWebhookConfigurations, patch, useWebhookServer, webhookConfiguration } from '../helpers/webhook-server.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });
const hooks = useWebhookServer();

// the policy labels the widget `first` with whether it saw the webhook's label `second`
const SEEN = 'Object{metadata: Object.metadata{labels: {"first": has(object.metadata.labels) && "second" in object.metadata.labels ? "saw-second" : "none"}}}';

// the webhook adds label `second` (changing the object) once
const second = (review: any, path: string) => {
  const labels = review.request.object.metadata.labels ?? {};
  return labels.second ? allow(review, path) : patch([{ op: 'add', path: '/metadata/labels', value: { ...labels, second: 'yes' } }])(review, path);
};

for (const [reinvocationPolicy, first] of [
  ['IfNeeded', 'saw-second'],
  ['Never', 'none'],
] as const) {
  test(`reinvocationPolicy ${reinvocationPolicy}: the policy ${reinvocationPolicy === 'Never' ? 'does not run' : 'runs'} again after a mutating webhook changed the object`, async (t) => {
    const ns = await createWebhookTestNamespace(server, `map-${reinvocationPolicy.toLowerCase()}`);
    const selector = { matchLabels: { 'kapi.test/ns': ns } };
    await installMutatingPolicy(
      server,
      `reinvoke-${ns}`,
      selector,
      { reinvocationPolicy, mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: SEEN } }] },
      { ns, inForce: (res) => res.status === 201 && res.body.metadata.labels?.first !== undefined },
    );
    hooks.handle(`/second-${ns}`, second);
    await installWebhookConfigurations(server, hooks, 'Mutating', ns, { path: `/second-${ns}` }, webhookConfiguration('Mutating', `second-${ns}`, { path: `/second-${ns}` }));
    const res = await server.request('POST', widgetsPath(ns), { body: widget('w') });
    t.is(res.status, 201, res.text);
    t.deepEqual(res.body.metadata.labels, { first, second: 'yes' });
    t.is(hooks.requestsTo(`/second-${ns}`).filter((r) => r.body?.request?.name === 'w').length, 1, 'the Never webhook is called once');
  });
}
