// ValidatingAdmissionPolicy enforcement over HTTP: deny/warn/audit, reasons, messages, matching, variables,
// namespaceObject, match conditions, failure policies, dry run. Every test scopes its policy to its own namespace
// (labelled with the test's id) so that tests sharing the server do not meet each other's policies.
import test from 'ava';
import { Tokens, type AdmissionPlugin, type Module } from '../../index.js';
import { expectStatus, suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import { VAP, VAPB, binding, installPolicy, policy, scopedNamespace } from '../helpers/vap.js';
import { mapPath, mapbPath, mutatingBinding, mutatingPolicy } from '../helpers/map.js';

/** Audit annotations as the plugin after ValidatingAdmissionPolicy sees them, by object name. */
const audited = new Map<string, Record<string, string>>();
const auditRecorder: Module = (c) =>
  c.register(Tokens.AdmissionPlugin, {
    useValue: {
      name: 'AuditRecorder',
      operations: ['*'],
      rules: [{ apiGroups: ['example.com'], resources: ['widgets'] }],
      sideEffects: 'None',
      validate(attrs) {
        if (attrs.auditAnnotations) audited.set(attrs.name, { ...attrs.auditAnnotations });
      },
    } satisfies AdmissionPlugin,
  });

const server = useTestServer({ widgetsCrd: true, modules: [auditRecorder] });

const mergePatch = (ns: string, name: string, spec: Record<string, unknown>) =>
  server.request('PATCH', widgetsPath(ns, name), { body: { spec }, contentType: 'application/merge-patch+json' });

const create = (ns: string, name: string, spec: Record<string, unknown> = { replicas: 1 }, labels?: Record<string, string>, query = '') =>
  server.request('POST', `${widgetsPath(ns)}${query}`, { body: widget(name, { spec, labels }) });

test('Deny: a violating widget is refused with the policy message, Invalid by default', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'deny');
  await installPolicy(
    server,
    policy(`max-${id}`, selector, { validations: [{ expression: 'object.spec.replicas <= 5', message: 'too many replicas' }] }),
    binding(`max-${id}`, `max-${id}`),
    async () => (await create(ns, `probe-${suffix()}`, { replicas: 9 })).status === 422,
  );
  const res = await create(ns, 'big', { replicas: 9 });
  const inner = `ValidatingAdmissionPolicy 'max-${id}' with binding 'max-${id}' denied request: too many replicas`;
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `widgets.example.com "big" is forbidden: ${inner}` });
  t.deepEqual(res.body.details, { name: 'big', group: 'example.com', kind: 'widgets', causes: [{ message: inner }] });
  t.is((await create(ns, 'small', { replicas: 2 })).status, 201);
  // updates are checked too; the policy does not cover deletes
  const upd = await mergePatch(ns, 'small', { replicas: 7 });
  expectStatus(t, upd, { code: 422, reason: 'Invalid', message: `widgets.example.com "small" is forbidden: ValidatingAdmissionPolicy 'max-${id}' with binding 'max-${id}' denied request: too many replicas` });
  t.is((await server.request('DELETE', widgetsPath(ns, 'small'))).status, 200);
});

test('reason sets the status code; messageExpression wins over message; without either the expression is quoted', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'reasons');
  await installPolicy(
    server,
    policy(`reasons-${id}`, selector, {
      validations: [
        { expression: "object.spec.color != 'red'", reason: 'Forbidden', messageExpression: "'color ' + object.spec.color + ' is not allowed'", message: 'ignored' },
        { expression: "object.spec.color != 'big'", reason: 'RequestEntityTooLarge' },
        { expression: "object.spec.color != 'blank'", messageExpression: "'  '", message: 'blank message expression falls back' },
        { expression: "object.spec.color != 'broken'", messageExpression: 'string(object.spec.missing)', message: 'broken message expression falls back' },
      ],
    }),
    binding(`reasons-${id}`, `reasons-${id}`),
    async () => (await create(ns, `probe-${suffix()}`, { color: 'red' })).status === 403,
  );
  const prefix = `ValidatingAdmissionPolicy 'reasons-${id}' with binding 'reasons-${id}' denied request:`;
  expectStatus(t, await create(ns, 'red', { color: 'red' }), { code: 403, reason: 'Forbidden', message: `widgets.example.com "red" is forbidden: ${prefix} color red is not allowed` });
  expectStatus(t, await create(ns, 'big', { color: 'big' }), {
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: `widgets.example.com "big" is forbidden: ${prefix} failed expression: object.spec.color != 'big'`,
  });
  expectStatus(t, await create(ns, 'blank', { color: 'blank' }), { code: 422, reason: 'Invalid', message: `widgets.example.com "blank" is forbidden: ${prefix} blank message expression falls back` });
  expectStatus(t, await create(ns, 'broken', { color: 'broken' }), { code: 422, reason: 'Invalid', message: `widgets.example.com "broken" is forbidden: ${prefix} broken message expression falls back` });
});

test('Warn: the request succeeds with a Warning header in kube text', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'warn');
  const warning = (res: { headers: Record<string, unknown> }) => String(res.headers['warning'] ?? '');
  await installPolicy(
    server,
    policy(`warn-${id}`, selector, { validations: [{ expression: "has(object.spec.color)", message: 'color should be set' }] }),
    binding(`warn-${id}`, `warn-${id}`, { validationActions: ['Warn'] }),
    async () => warning(await create(ns, `probe-${suffix()}`, { replicas: 1 })).includes('color should be set'),
  );
  const res = await create(ns, 'plain', { replicas: 1 });
  t.is(res.status, 201);
  t.is(warning(res), `299 - "Validation failed for ValidatingAdmissionPolicy 'warn-${id}' with binding 'warn-${id}': color should be set"`);
  t.is(warning(await create(ns, 'colored', { color: 'blue' })), '');
});

test('warnings reach the client with a refusal too: a Warn binding and a Deny binding on one request', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'warndeny');
  await installPolicy(
    server,
    policy(`soft-${id}`, selector, { validations: [{ expression: 'object.spec.replicas <= 3', message: 'more than 3 replicas' }] }),
    binding(`soft-${id}`, `soft-${id}`, { validationActions: ['Warn'] }),
    async () => String((await create(ns, `probe-${suffix()}`, { replicas: 4 })).headers['warning'] ?? '').includes('more than 3'),
  );
  await installPolicy(
    server,
    policy(`hard-${id}`, selector, { validations: [{ expression: 'object.spec.replicas <= 5', message: 'more than 5 replicas' }] }),
    binding(`hard-${id}`, `hard-${id}`),
    async () => (await create(ns, `probe-${suffix()}`, { replicas: 9 })).status === 422,
  );
  const res = await create(ns, 'huge', { replicas: 9 });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.is(res.headers['warning'], `299 - "Validation failed for ValidatingAdmissionPolicy 'soft-${id}' with binding 'soft-${id}': more than 3 replicas"`);
});

test('Audit: the request succeeds and carries the validation_failure audit annotation; auditAnnotations are published', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'audit');
  await installPolicy(
    server,
    policy(`audit-${id}`, selector, {
      validations: [{ expression: 'object.spec.replicas < 3', message: 'many replicas' }],
      auditAnnotations: [
        { key: 'replicas', valueExpression: "'replicas: ' + string(object.spec.replicas)" },
        { key: 'skipped', valueExpression: 'null' },
      ],
    }),
    binding(`audit-${id}`, `audit-${id}`, { validationActions: ['Audit', 'Warn'] }),
    async () => {
      const name = `probe-${suffix()}`;
      await create(ns, name, { replicas: 4 });
      return audited.has(name);
    },
  );
  const res = await create(ns, 'many', { replicas: 4 });
  t.is(res.status, 201);
  t.deepEqual(audited.get('many'), {
    'validation.policy.admission.k8s.io/validation_failure': JSON.stringify([
      { message: 'many replicas', policy: `audit-${id}`, binding: `audit-${id}`, expressionIndex: 0, validationActions: ['Audit', 'Warn'] },
    ]),
    [`audit-${id}/replicas`]: 'replicas: 4',
  });
  await create(ns, 'few', { replicas: 1 });
  t.deepEqual(audited.get('few'), { [`audit-${id}/replicas`]: 'replicas: 1' });
});

test('variables are composed lazily; namespaceObject, request and authorizer are available', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'vars', { tier: 'gold' });
  await installPolicy(
    server,
    policy(`vars-${id}`, selector, {
      variables: [
        { name: 'tier', expression: "namespaceObject.metadata.labels['tier']" },
        { name: 'limit', expression: "variables.tier == 'gold' ? 10 : 2" },
        { name: 'broken', expression: 'object.spec.nothing' },
      ],
      validations: [
        { expression: 'object.spec.replicas <= variables.limit', messageExpression: "'at most ' + string(variables.limit) + ' replicas in ' + namespaceObject.metadata.name" },
        { expression: "request.operation != 'CREATE' || request.userInfo.username != '' ", message: 'anonymous' },
        { expression: "authorizer.group('example.com').resource('widgets').namespace(request.namespace).check('create').allowed()", message: 'not allowed' },
      ],
    }),
    binding(`vars-${id}`, `vars-${id}`),
    async () => (await create(ns, `probe-${suffix()}`, { replicas: 11 })).status === 422,
  );
  t.is((await create(ns, 'ten', { replicas: 10 })).status, 201);
  expectStatus(t, await create(ns, 'eleven', { replicas: 11 }), {
    code: 422,
    reason: 'Invalid',
    message: `widgets.example.com "eleven" is forbidden: ValidatingAdmissionPolicy 'vars-${id}' with binding 'vars-${id}' denied request: at most 10 replicas in ${ns}`,
  });
});

test('failurePolicy: a runtime error denies under Fail with kube text, and is ignored under Ignore', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'fail');
  const broken = [{ expression: 'object.spec.size > 1' }];
  await installPolicy(server, policy(`fail-${id}`, selector, { validations: broken }), binding(`fail-${id}`, `fail-${id}`), async () => (await create(ns, `probe-${suffix()}`)).status === 422);
  await installPolicy(server, policy(`ignore-${id}`, selector, { validations: broken, failurePolicy: 'Ignore' }), binding(`ignore-${id}`, `ignore-${id}`), async () => true);
  expectStatus(t, await create(ns, 'w'), {
    code: 422,
    reason: 'Invalid',
    message: `widgets.example.com "w" is forbidden: ValidatingAdmissionPolicy 'fail-${id}' with binding 'fail-${id}' denied request: expression 'object.spec.size > 1' resulted in error: no such key: size`,
  });
  t.is((await server.request('DELETE', `${VAPB}/fail-${id}`)).status, 200);
  await server.waitFor(async () => (await create(ns, `after-${suffix()}`)).status === 201, 10_000, 'only the Ignore policy left');
  t.pass();
});

test('matching: exclude rules, object selector, match conditions, operations; a binding narrows with matchResources', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'match');
  await installPolicy(
    server,
    policy(`match-${id}`, selector, {
      matchConstraints: {
        namespaceSelector: selector,
        objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
        resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'DELETE'], resources: ['widgets'] }],
        excludeResourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['*'], resources: ['widgets'], resourceNames: ['excluded'] }],
      },
      matchConditions: [{ name: 'not-exempt', expression: "object == null || !has(object.spec.color) || object.spec.color != 'exempt'" }],
      validations: [{ expression: 'false', message: 'no widgets here' }],
    }),
    binding(`match-${id}`, `match-${id}`, {
      matchResources: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }], objectSelector: { matchExpressions: [{ key: 'free', operator: 'DoesNotExist' }] } },
    }),
    async () => (await create(ns, `probe-${suffix()}`)).status === 422,
  );
  t.is((await create(ns, 'w')).status, 422);
  t.is((await create(ns, 'excluded')).status, 201, 'excluded by name');
  t.is((await create(ns, 'skipped', { replicas: 1 }, { skip: 'yes' })).status, 201, 'objectSelector');
  t.is((await create(ns, 'free', { replicas: 1 }, { free: 'yes' })).status, 201, "binding's objectSelector narrows");
  t.is((await create(ns, 'exempt', { color: 'exempt' })).status, 201, 'matchCondition false');
  const other = await scopedNamespace(server, 'other');
  t.is((await create(other.ns, 'w')).status, 201, 'namespaceSelector');
  // UPDATE is not among the operations; DELETE is (object is null then)
  t.is((await mergePatch(ns, 'exempt', { replicas: 3 })).status, 200);
  const del = await server.request('DELETE', widgetsPath(ns, 'exempt'));
  t.is(del.status, 422, 'deletes match by the old object');
});

test('a binding whose policy does not exist does nothing; dry runs are checked and store nothing', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'dry');
  t.is((await server.request('POST', VAPB, { body: binding(`orphan-${id}`, `missing-${id}`) })).status, 201);
  t.is((await create(ns, 'a')).status, 201);
  await installPolicy(
    server,
    policy(`dry-${id}`, selector, { validations: [{ expression: "object.spec.color == 'green'", message: 'only green' }] }),
    binding(`dry-${id}`, `dry-${id}`),
    async () => (await create(ns, `probe-${suffix()}`)).status === 422,
  );
  const res = await create(ns, 'dry', { color: 'red' }, undefined, '?dryRun=All');
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `widgets.example.com "dry" is forbidden: ValidatingAdmissionPolicy 'dry-${id}' with binding 'dry-${id}' denied request: only green` });
  t.is((await create(ns, 'dry-ok', { color: 'green' }, undefined, '?dryRun=All')).status, 201);
  t.is((await server.request('GET', widgetsPath(ns, 'dry-ok'))).status, 404);
});

test('policies and bindings themselves, validating or mutating, are never checked by policies', async (t) => {
  const id = suffix();
  const everything = [{ apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1'], operations: ['*'], resources: ['*'] }];
  const p = policy(`meta-${id}`, {}, { matchConstraints: { resourceRules: everything }, validations: [{ expression: 'false' }] });
  t.is((await server.request('POST', VAP, { body: p })).status, 201);
  t.is((await server.request('POST', VAPB, { body: binding(`meta-${id}`, `meta-${id}`) })).status, 201);
  // webhook configurations are not exempt: once one is refused, the policy is in force
  const webhookConfiguration = (name: string) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name } });
  await server.waitFor(async () => (await server.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { body: webhookConfiguration(`probe-${suffix()}`) })).status === 422);
  const map = mutatingPolicy(`meta-${id}`);
  t.is((await server.request('POST', mapPath('v1'), { body: map })).status, 201);
  t.is((await server.request('POST', mapbPath('v1'), { body: mutatingBinding(`meta-${id}`, `meta-${id}`) })).status, 201);
  t.is((await server.request('DELETE', `${mapbPath('v1')}/meta-${id}`)).status, 200);
  t.is((await server.request('DELETE', `${mapPath('v1')}/meta-${id}`)).status, 200);
  t.is((await server.request('DELETE', `${VAPB}/meta-${id}`)).status, 200);
  t.is((await server.request('DELETE', `${VAP}/meta-${id}`)).status, 200);
});
