// Admission sees the user a request acts as (impersonated or not), and the CEL `authorizer` of policies and webhook
// match conditions asks the server's authorizers (here a small table of the test's own) about that user.
import test from 'ava';
import { createNamespace, expectStatus, installWidgetsCrd, suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { scopedNamespace, VAP, VAPB } from '../helpers/vap.js';
import { installMutatingPolicy } from '../helpers/map.js';
import { allow, createWebhookTestNamespace, installWebhookConfigurations, useWebhookServer, webhookConfiguration } from '../helpers/webhook-server.js';
import { staticTokenAuth } from '../../index.js';

const tokens = { admin: 'admin-token', alice: 'alice-token' };

const authz = tableAuthorizer([
  { groups: ['system:masters'], verbs: ['*'], resources: ['*'], paths: ['*'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['users', 'groups'] },
  { users: ['alice', 'bob'], verbs: ['create'], resources: ['widgets'], apiGroups: ['example.com'] },
  { users: ['alice'], verbs: ['delete'], resources: ['widgets'], apiGroups: ['example.com'] },
  { users: ['bob'], verbs: ['delete'], resources: ['widgets'], apiGroups: ['example.com'], denyReason: 'bob never deletes' },
]);

const server = useTestServer({
  auth: {
    token: tokens.admin,
    modules: [
      staticTokenAuth([
        { token: tokens.admin, user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
        { token: tokens.alice, user: { username: 'alice', groups: ['system:authenticated'] } },
      ]),
      authz.module,
    ],
  },
});
const hooks = useWebhookServer();

test.before(async () => {
  await installWidgetsCrd(server);
});

const asAlice = { token: tokens.alice };
const asBob = { token: tokens.alice, headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'team' } };

test.serial('a ValidatingAdmissionPolicy asking authorizer.check(delete) admits alice and denies bob, acting as bob', async (t) => {
  const ns = await createNamespace(server, 'vap-authz');
  const name = `deleters-${suffix()}`;
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }] },
      matchConditions: [{ name: 'in-namespace', expression: `object.metadata.namespace == '${ns}'` }],
      validations: [
        {
          expression: "authorizer.group('example.com').resource('widgets').namespace(object.metadata.namespace).check('delete').allowed()",
          messageExpression: "request.userInfo.username + ' may not delete widgets'",
          reason: 'Forbidden',
        },
        {
          expression: "authorizer.requestResource.check('create').allowed() && authorizer.group('example.com').resource('widgets').check('delete').reason() != 'bob never deletes'",
          message: 'bob is refused',
        },
      ],
    },
  };
  t.is((await server.request('POST', VAP, { body: policy })).status, 201);
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } };
  t.is((await server.request('POST', VAPB, { body: binding })).status, 201);
  await server.waitFor(async () => (await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { ...asBob, body: widget('probe') })).status === 403, 10_000, 'policy in force');

  const alice = await server.request('POST', widgetsPath(ns), { ...asAlice, body: widget('by-alice') });
  t.is(alice.status, 201, alice.text);
  const bob = await server.request('POST', widgetsPath(ns), { ...asBob, body: widget('by-bob') });
  expectStatus(t, bob, {
    code: 403,
    reason: 'Forbidden',
    message: `widgets.example.com "by-bob" is forbidden: ValidatingAdmissionPolicy '${name}' with binding '${name}' denied request: bob may not delete widgets`,
  });
  const asked = authz.asked.filter((a) => a.verb === 'delete' && a.namespace === ns);
  t.deepEqual(
    asked.map((a) => a.user.username),
    ['bob', 'alice', 'bob'],
    'the probe, then alice, then bob: each asked once per request',
  );
  t.deepEqual(asked[2]!.user.groups, ['team', 'system:authenticated']);
  t.is(asked[2]!.apiVersion, '*');
});

test.serial('a webhook sees the impersonated userInfo, and its match conditions ask the authorizer about that user', async (t) => {
  const ns = await createWebhookTestNamespace(server, 'webhook-user');
  hooks.handle('/users', allow);
  // Called for the probes installWebhookConfigurations sends (as the admin, who may delete) and for users who may not delete.
  const cannotDelete = "!authorizer.group('example.com').resource('widgets').check('delete').allowed()";
  const config = webhookConfiguration('Validating', `users-${suffix()}`, {
    path: '/users',
    matchConditions: [{ name: 'cannot-delete', expression: `object.metadata.name.startsWith('probe-') || ${cannotDelete}` }],
  });
  await installWebhookConfigurations(server, hooks, 'Validating', ns, { path: '/users' }, config);
  const before = hooks.requestsTo('/users').length;
  const alice = await server.request('POST', widgetsPath(ns), { ...asAlice, body: widget('by-alice') });
  t.is(alice.status, 201, alice.text);
  t.is(hooks.requestsTo('/users').length, before, 'alice may delete widgets: the condition skips the webhook');
  const bob = await server.request('POST', widgetsPath(ns), { ...asBob, body: widget('by-bob') });
  t.is(bob.status, 201, bob.text);
  const calls = hooks.requestsTo('/users').slice(before);
  t.is(calls.length, 1);
  t.deepEqual(calls[0]!.body.request.userInfo, { username: 'bob', groups: ['team', 'system:authenticated'] });
});

test.serial('a MutatingAdmissionPolicy mutation asks the authorizer about the requesting user', async (t) => {
  const { ns, selector } = await scopedNamespace(server, 'map-authz');
  const canDelete = "authorizer.group('example.com').resource('widgets').namespace(object.metadata.namespace).check('delete')";
  const mutation = { patchType: 'ApplyConfiguration', applyConfiguration: { expression: `Object{metadata: Object.metadata{labels: {"can-delete": string(${canDelete}.allowed())}}}` } };
  await installMutatingPolicy(server, `deleters-${suffix()}`, selector, { mutations: [mutation] }, { ns, inForce: (res) => res.status === 201 && res.body.metadata.labels?.['can-delete'] !== undefined });
  const alice = await server.request('POST', widgetsPath(ns), { ...asAlice, body: widget('by-alice') });
  t.is(alice.body.metadata.labels['can-delete'], 'true', alice.text);
  const bob = await server.request('POST', widgetsPath(ns), { ...asBob, body: widget('by-bob') });
  t.is(bob.body.metadata.labels['can-delete'], 'false', bob.text);
});
