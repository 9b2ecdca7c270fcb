// The webhook configuration resources: discovery, kube's defaults, create/update validation with kube's 422 texts,
// decoding errors, and the table kubectl prints.
import test from 'ava';
import { expectStatus, suffix, useTestServer } from '../helpers/test-server.js';
import { webhookConfigurationsPath } from '../helpers/webhook-server.js';

const server = useTestServer({ storage: 'memory' });

const group = '/apis/admissionregistration.k8s.io/v1';

/** A valid webhook, each field overridable (null removes it). */
function hook(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    name: 'check.example.kapi.test',
    clientConfig: { url: 'https://webhook.example.com/check' },
    rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete base[k];
    else base[k] = v;
  }
  return base;
}

const config = (kind: 'Validating' | 'Mutating', name: string, webhooks: unknown[]) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: `${kind}WebhookConfiguration`,
  metadata: { name },
  webhooks,
});

test('both kinds are discovered: cluster-scoped, in the api-extensions category', async (t) => {
  const res = await server.request('GET', group);
  t.is(res.status, 200);
  for (const kind of ['Validating', 'Mutating']) {
    const r = res.body.resources.find((x: any) => x.kind === `${kind}WebhookConfiguration`);
    t.like(r, { name: `${kind.toLowerCase()}webhookconfigurations`, singularName: `${kind.toLowerCase()}webhookconfiguration`, namespaced: false, categories: ['api-extensions'] });
    t.deepEqual([...r.verbs].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  }
});

test("kube's defaults are applied to every webhook and rule", async (t) => {
  const name = `defaults-${suffix()}`;
  const mutating = await server.request('POST', webhookConfigurationsPath('Mutating'), { body: config('Mutating', name, [hook()]) });
  t.is(mutating.status, 201, mutating.text);
  t.like(mutating.body.webhooks[0], {
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    timeoutSeconds: 10,
    reinvocationPolicy: 'Never',
    rules: [{ scope: '*' }],
  });
  t.is(mutating.body.metadata.generation, 1);
  const validating = await server.request('POST', webhookConfigurationsPath('Validating'), {
    body: config('Validating', name, [hook({ clientConfig: { service: { namespace: 'ns', name: 'svc' } }, unknownField: 'dropped' })]),
  });
  t.is(validating.status, 201, validating.text);
  t.false('reinvocationPolicy' in validating.body.webhooks[0]);
  t.false('unknownField' in validating.body.webhooks[0]);
  t.deepEqual(validating.body.webhooks[0].clientConfig, { service: { namespace: 'ns', name: 'svc', port: 443 } });
});

test('webhook names, side effects, review versions, timeouts and client configs are validated with kube\'s texts', async (t) => {
  const name = `invalid-${suffix()}`;
  const res = await server.request('POST', webhookConfigurationsPath('Validating'), {
    body: config('Validating', name, [
      hook({ name: 'two.segments' }),
      hook({ sideEffects: null, admissionReviewVersions: [] }),
      hook({ name: 'dup.example.kapi.test', sideEffects: 'Some', admissionReviewVersions: ['v2'], timeoutSeconds: 31 }),
      hook({ name: 'dup.example.kapi.test', clientConfig: { url: 'http://user:pw@example.com/x?a=b#frag' } }),
      hook({ name: 'both.example.kapi.test', clientConfig: { url: 'https://x.example.com', service: { namespace: 'a', name: 'b' } } }),
    ]),
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(
    res.body.details.causes.map((c: any) => `${c.field}: ${c.message}`),
    [
      'webhooks[0].name: Invalid value: "two.segments": should be a domain with at least three segments separated by dots',
      'webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[1].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      'webhooks[2].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[2].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[2].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      'webhooks[3].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'webhooks[3].clientConfig.url: Invalid value: "user:pw": user information is not permitted in the URL',
      'webhooks[3].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
      'webhooks[3].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
      'webhooks[3].name: Duplicate value: "dup.example.kapi.test"',
      'webhooks[4].clientConfig: Required value: exactly one of url or service is required',
    ],
  );
  t.true(
    res.body.message.startsWith(
      `ValidatingWebhookConfiguration.admissionregistration.k8s.io "${name}" is invalid: [webhooks[0].name: Invalid value: "two.segments": should be a domain with at least three segments separated by dots, `,
    ),
    res.body.message,
  );
});

test('rules and match conditions are validated', async (t) => {
  const rules = [
    { operations: ['CREATE', '*'], apiGroups: [], apiVersions: ['v1'], resources: ['*', 'widgets'] },
    { operations: ['PATCH'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*', 'widgets'], scope: 'Global' },
  ];
  const matchConditions = [
    { name: 'ok', expression: "object.metadata.name != 'x'" },
    { name: 'ok', expression: 'object.metadata.name' },
    { name: 'Not A Name!', expression: 'object.spec.(' },
  ];
  const res = await server.request('POST', webhookConfigurationsPath('Mutating'), {
    body: config('Mutating', `rules-${suffix()}`, [hook({ rules, matchConditions, reinvocationPolicy: 'Always', failurePolicy: 'Maybe' })]),
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  const causes = res.body.details.causes.map((c: any) => `${c.field}: ${c.message}`);
  t.deepEqual(causes.slice(0, 9), [
    'webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"CREATE", "*"}: if \'*\' is present, must not specify other operations',
    'webhooks[0].rules[0].apiGroups: Required value',
    'webhooks[0].rules[0].resources: Invalid value: []string{"*", "widgets"}: if \'*\' is present, must not specify other resources without subresources',
    'webhooks[0].rules[1].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    'webhooks[0].rules[1].resources: Invalid value: []string{"*/*", "widgets"}: if \'*/*\' is present, must not specify other resources',
    'webhooks[0].rules[1].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    'webhooks[0].matchConditions[1].expression: Invalid value: "object.metadata.name": must evaluate to bool but got dyn',
  ]);
  t.is(causes[9], 'webhooks[0].matchConditions[1].name: Duplicate value: "ok"');
  t.regex(causes[10], /^webhooks\[0\]\.matchConditions\[2\]\.expression: Invalid value: "object\.spec\.\(": compilation failed: ERROR: <input>:1:13: /);
  t.regex(causes[11], /^webhooks\[0\]\.matchConditions\[2\]\.name: Invalid value: "Not A Name!": name part must consist of alphanumeric characters/);

  const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  const tooMany = await server.request('POST', webhookConfigurationsPath('Validating'), { body: config('Validating', `many-${suffix()}`, [hook({ matchConditions: many })]) });
  expectStatus(t, tooMany, { code: 422, reason: 'Invalid' });
  t.deepEqual(tooMany.body.details.causes[0], { reason: 'FieldValueTooMany', message: 'Too many: 65: must have at most 64 items', field: 'webhooks[0].matchConditions' });
});

test('a body that does not decode into kube\'s types is a 400 with Go\'s text', async (t) => {
  const res = await server.request('POST', webhookConfigurationsPath('Validating'), { body: config('Validating', `bad-${suffix()}`, [hook({ timeoutSeconds: 'ten' })]) });
  expectStatus(t, res, {
    code: 400,
    reason: 'BadRequest',
    message:
      'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: json: cannot unmarshal string into Go struct field ValidatingWebhook.webhooks.timeoutSeconds of type int32',
  });
  const list = await server.request('POST', webhookConfigurationsPath('Mutating'), { body: { ...config('Mutating', `bad-${suffix()}`, []), webhooks: 'none' } });
  t.is(list.body.message, 'MutatingWebhookConfiguration in version "v1" cannot be handled as a MutatingWebhookConfiguration: json: cannot unmarshal string into Go struct field MutatingWebhookConfiguration.webhooks of type []v1.MutatingWebhook');
});

test('an update keeps webhooks the stored configuration already allowed; a changed spec bumps generation', async (t) => {
  const name = `upd-${suffix()}`;
  const created = await server.request('POST', webhookConfigurationsPath('Validating'), { body: config('Validating', name, [hook()]) });
  t.is(created.status, 201, created.text);
  const changed = { ...created.body, webhooks: [{ ...created.body.webhooks[0], timeoutSeconds: 5 }] };
  const updated = await server.request('PUT', webhookConfigurationsPath('Validating', name), { body: changed });
  t.is(updated.status, 200, updated.text);
  t.is(updated.body.metadata.generation, 2);
  const invalid = await server.request('PUT', webhookConfigurationsPath('Validating', name), { body: { ...updated.body, webhooks: [{ ...updated.body.webhooks[0], sideEffects: 'Unknown' }] } });
  expectStatus(t, invalid, {
    code: 422,
    reason: 'Invalid',
    message: `ValidatingWebhookConfiguration.admissionregistration.k8s.io "${name}" is invalid: webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"`,
  });
});

test('the table shows NAME, WEBHOOKS, AGE', async (t) => {
  const name = `table-${suffix()}`;
  await server.request('POST', webhookConfigurationsPath('Validating'), { body: config('Validating', name, [hook(), hook({ name: 'other.example.kapi.test' })]) });
  const res = await server.request('GET', webhookConfigurationsPath('Validating', name), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.body.columnDefinitions.map((c: any) => `${c.name}:${c.type}`),
    ['Name:string', 'Webhooks:integer', 'Age:string'],
  );
  t.is(res.body.columnDefinitions[1].description, 'Webhooks indicates the number of webhooks registered in this configuration');
  t.deepEqual(res.body.rows[0].cells.slice(0, 2), [name, 2]);
});
