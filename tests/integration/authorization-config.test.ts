// kube's AuthorizationConfiguration file (--authorization-config) serving requests: the authorizers in the file's
// order, webhook match conditions and failure policies, caching switched off, and the file followed while serving.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { authorizationConfig, readAuthorizationConfiguration } from '../../index.js';
import { tempDir } from '../helpers/kapi-process.js';
import { reviewer, writeWebhookKubeconfig } from '../helpers/authorization-webhook.js';
import { expectStatus, suffix, startTestServer, type TestServer } from '../helpers/test-server.js';
import { useWebhookServer } from '../helpers/webhook-server.js';
import { withCapturedLog } from '../helpers/captured-log.js';

const hooks = useWebhookServer();

const alice = { token: 'alice-token', user: { username: 'alice', groups: ['devs'] } };

/** A webhook authorizer entry calling `path` on the test server. */
function webhook(name: string, path: string, fields: Record<string, unknown> = {}) {
  return {
    type: 'Webhook',
    name,
    webhook: {
      timeout: '2s',
      subjectAccessReviewVersion: 'v1',
      failurePolicy: 'NoOpinion',
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: writeWebhookKubeconfig(hooks, path) },
      ...fields,
    },
  };
}

function writeConfig(file: string, authorizers: unknown[]): void {
  writeFileSync(file, stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers }));
}

/** A server authorized by a configuration file holding `authorizers`. */
async function serverWith(authorizers: unknown[]): Promise<{ server: TestServer; file: string }> {
  const file = join(tempDir('kapi-authz-config-'), 'authorization.yaml');
  writeConfig(file, authorizers);
  const server = await startTestServer({ storage: 'memory', tokens: [alice], authorizers: [authorizationConfig({ configFile: file, initial: readAuthorizationConfiguration(file) })] });
  return { server, file };
}

const getConfigMap = (server: TestServer, namespace: string) => server.request('GET', `/api/v1/namespaces/${namespace}/configmaps/x`, { token: alice.token });

test('the file\'s authorizers in order: RBAC first, then a webhook that allows alice', async (t) => {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, reviewer((spec) => spec.user === 'alice'));
  const { server } = await serverWith([{ type: 'RBAC', name: 'rbac' }, webhook('allow-alice', path)]);
  try {
    t.is((await getConfigMap(server, 'default')).status, 404); // allowed by the webhook
    t.is((await server.request('GET', '/api/v1/namespaces')).status, 200); // the admin, by RBAC
    t.is(hooks.requestsTo(path).length, 1);
  } finally {
    await server.close();
  }
});

test('match conditions: the webhook is asked only about requests they match; an error falls to the failure policy', async (t) => {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, reviewer(() => true));
  const conditions = {
    matchConditionSubjectAccessReviewVersion: 'v1',
    matchConditions: [{ expression: "request.resourceAttributes.namespace == 'team-a'" }, { expression: "'devs' in request.groups" }],
  };
  const { server } = await serverWith([{ type: 'RBAC', name: 'rbac' }, webhook('team-a', path, { ...conditions, failurePolicy: 'Deny' })]);
  try {
    t.is((await getConfigMap(server, 'team-a')).status, 404, 'matched: allowed by the webhook');
    expectStatus(t, await getConfigMap(server, 'team-b'), {
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "x" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "team-b"',
    });
    t.is(hooks.requestsTo(path).length, 1, 'not asked about team-b');
    // a non-resource request has no resourceAttributes: the condition errs, and the Deny policy decides
    const res = await server.request('GET', '/metrics', { token: alice.token });
    t.is(res.status, 500);
    t.regex(res.body.message, /^Internal error occurred: cel evaluation error: expression 'request\.resourceAttributes\.namespace == 'team-a'' resulted in error: no such key: resourceAttributes$/);
    t.is(hooks.requestsTo(path).length, 1);
  } finally {
    await server.close();
  }
});

test('failure policy: NoOpinion lets the next authorizer decide; Deny refuses what it would allow', async (t) => {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, () => 'close');
  const lenient = await serverWith([webhook('lenient', path), { type: 'AlwaysAllow', name: 'allow' }]);
  try {
    t.is((await getConfigMap(lenient.server, 'default')).status, 404, 'no opinion, then AlwaysAllow');
  } finally {
    await lenient.server.close();
  }
  const strict = await serverWith([webhook('strict', path, { failurePolicy: 'Deny' }), { type: 'AlwaysAllow', name: 'allow' }]);
  try {
    const res = await getConfigMap(strict.server, 'default');
    t.is(res.status, 500);
    t.regex(res.body.message, /^Internal error occurred: Post "https:\/\/127\.0\.0\.1:\d+\/authz-\w+\?timeout=2s": EOF$/);
  } finally {
    await strict.server.close();
  }
});

test('cacheAuthorizedRequests: false asks the webhook about every request', async (t) => {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, reviewer(() => true));
  const { server } = await serverWith([webhook('uncached', path, { cacheAuthorizedRequests: false })]);
  try {
    for (let i = 0; i < 3; i++) t.is((await getConfigMap(server, 'default')).status, 404);
    t.is(hooks.requestsTo(path).length, 3);
  } finally {
    await server.close();
  }
});

test.serial('the file is followed: a valid change replaces the authorizers, an invalid one is logged and changes nothing', async (t) => {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, reviewer((spec) => spec.user === 'alice'));
  const { server, file } = await serverWith([{ type: 'RBAC', name: 'rbac' }, webhook('allow-alice', path)]);
  try {
    await withCapturedLog(async (logs) => {
      t.is((await getConfigMap(server, 'default')).status, 404);
      writeConfig(file, [{ type: 'RBAC', name: 'rbac' }]);
      await server.waitFor(async () => (await getConfigMap(server, 'default')).status === 403, 10_000, 'the new configuration without the webhook');
      writeConfig(file, [webhook('allow-alice', path, { timeout: '1m' })]);
      await server.waitFor(() => logs.some((l) => l.msg.includes('not reloaded, the previous one stays in force: authorizers[0].timeout: Invalid value: "1m0s": must be > 0s and <= 30s')), 10_000, 'the invalid file to be logged');
      t.is((await getConfigMap(server, 'default')).status, 403, 'the configuration in force is the last valid one');
      writeConfig(file, [{ type: 'AlwaysAllow', name: 'allow' }]);
      await server.waitFor(async () => (await getConfigMap(server, 'default')).status === 404, 10_000, 'the next valid configuration');
    });
  } finally {
    await server.close();
  }
});
