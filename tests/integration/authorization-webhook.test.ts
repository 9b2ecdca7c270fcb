// The webhook authorizer (kube's --authorization-mode=...,Webhook) over real HTTPS: the SubjectAccessReview it sends,
// the decisions it takes from the answer, its cache, and what a failing webhook makes of a request (kube's 500 when
// no other authorizer allows) and of an access review (evaluationError).
import test from 'ava';
import { rbacAuthorization, readKubeconfigClient, webhookAuthorization, type WebhookAuthorizerOptions } from '../../index.js';
import { expectStatus, suffix, startTestServer, type TestServer } from '../helpers/test-server.js';
import { reviewAnswer, reviewer, writeWebhookKubeconfig } from '../helpers/authorization-webhook.js';
import { useWebhookServer, type WebhookHandler } from '../helpers/webhook-server.js';

const hooks = useWebhookServer();

const alice = { token: 'alice-token', user: { username: 'alice', uid: 'alice-uid', groups: ['devs'], extra: { scopes: ['b', 'a'], 'acme.io/team': ['x'] } } };

/** A server whose authorizers are RBAC then a webhook at a fresh path of the test server; `handler` answers there. */
async function serverWith(handler: WebhookHandler, options: Partial<WebhookAuthorizerOptions> = {}): Promise<{ server: TestServer; path: string }> {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, handler);
  const webhook = webhookAuthorization({
    name: 'default',
    client: readKubeconfigClient(writeWebhookKubeconfig(hooks, path)),
    version: 'v1',
    timeoutMs: 5_000,
    authorizedTtlMs: 300_000,
    unauthorizedTtlMs: 30_000,
    decisionOnError: 'no-opinion',
    retryBackoff: { initialMs: 10, factor: 1.5, attempts: 5 },
    ...options,
  });
  const server = await startTestServer({ storage: 'memory', tokens: [alice], authorizers: [rbacAuthorization(), webhook] });
  return { server, path };
}

const allowAliceReadingConfigMaps = reviewer((spec) => spec.user === 'alice' && spec.resourceAttributes?.resource === 'configmaps' && spec.resourceAttributes?.verb === 'get');

test('the webhook allows what RBAC does not; it is sent kube\'s SubjectAccessReview with the bearer token of its kubeconfig', async (t) => {
  const { server, path } = await serverWith(allowAliceReadingConfigMaps);
  try {
    const res = await server.request('GET', '/api/v1/namespaces/default/configmaps/settings', { token: alice.token });
    t.is(res.status, 404, res.text); // allowed: the configmap just does not exist
    const [call] = hooks.requestsTo(path);
    t.is(call?.headers.authorization, 'Bearer apiserver-token');
    t.is(call?.query.timeout, '5s');
    t.deepEqual(call?.body, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: 'default', verb: 'get', version: 'v1', resource: 'configmaps', name: 'settings' },
        user: 'alice',
        groups: call?.body.spec.groups,
        extra: { 'acme.io/team': ['x'], scopes: ['b', 'a'] },
        uid: 'alice-uid',
      },
      status: { allowed: false },
    });
    t.true(call?.body.spec.groups.includes('devs'));
    // what RBAC allows (the admin) never reaches the webhook
    t.is((await server.request('GET', '/api/v1/namespaces')).status, 200);
    t.is(hooks.requestsTo(path).length, 1);
  } finally {
    await server.close();
  }
});

test('a subresource and a non-resource path are sent as kube sends them; no opinion is a 403 with the webhook\'s reason', async (t) => {
  const { server, path } = await serverWith(reviewer(() => false));
  try {
    expectStatus(t, await server.request('GET', '/api/v1/namespaces/default/pods/p/log', { token: alice.token }), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "p" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "default": the webhook has no opinion',
    });
    expectStatus(t, await server.request('GET', '/metrics', { token: alice.token }), {
      code: 403,
      reason: 'Forbidden',
      message: 'forbidden: User "alice" cannot get path "/metrics": the webhook has no opinion',
    });
    const [logs, metrics] = hooks.requestsTo(path).map((r) => r.body.spec);
    t.deepEqual(logs.resourceAttributes, { namespace: 'default', verb: 'get', version: 'v1', resource: 'pods', subresource: 'log', name: 'p' });
    t.deepEqual(metrics.nonResourceAttributes, { path: '/metrics', verb: 'get' });
    t.is(metrics.resourceAttributes, undefined);
  } finally {
    await server.close();
  }
});

test('denied stops the chain with the webhook\'s reason', async (t) => {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, reviewer(() => false, (spec) => spec.resourceAttributes?.resource === 'secrets'));
  // the webhook first: its denial wins over RBAC, which would allow the admin
  const webhook = webhookAuthorization({ name: 'default', client: readKubeconfigClient(writeWebhookKubeconfig(hooks, path)), version: 'v1', timeoutMs: 5_000, authorizedTtlMs: 0, unauthorizedTtlMs: 0, decisionOnError: 'no-opinion' });
  const server = await startTestServer({ storage: 'memory', authorizers: [webhook, rbacAuthorization()] });
  try {
    expectStatus(t, await server.request('GET', '/api/v1/namespaces/default/secrets'), {
      code: 403,
      reason: 'Forbidden',
      message: 'secrets is forbidden: User "kapi-admin" cannot list resource "secrets" in API group "" in the namespace "default": the webhook denies it',
    });
    t.is((await server.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
  } finally {
    await server.close();
  }
});

test('v1beta1: the review is authorization.k8s.io/v1beta1, its groups under `group`', async (t) => {
  const { server, path } = await serverWith(allowAliceReadingConfigMaps, { version: 'v1beta1' });
  try {
    t.is((await server.request('GET', '/api/v1/namespaces/default/configmaps/x', { token: alice.token })).status, 404);
    const [call] = hooks.requestsTo(path);
    t.is(call?.body.apiVersion, 'authorization.k8s.io/v1beta1');
    t.true(call?.body.spec.group.includes('devs'));
    t.is(call?.body.spec.groups, undefined);
  } finally {
    await server.close();
  }
});

test('answers are cached: allowed ones for the authorized TTL, others for the unauthorized TTL (0: not cached)', async (t) => {
  const { server, path } = await serverWith(allowAliceReadingConfigMaps, { unauthorizedTtlMs: 0 });
  try {
    for (let i = 0; i < 3; i++) t.is((await server.request('GET', '/api/v1/namespaces/default/configmaps/x', { token: alice.token })).status, 404);
    t.is(hooks.requestsTo(path).length, 1, 'an allowed answer is reused');
    for (let i = 0; i < 2; i++) t.is((await server.request('GET', '/api/v1/namespaces/default/configmaps/y', { token: alice.token })).status, 404);
    t.is(hooks.requestsTo(path).length, 2, 'another request is another review');
    for (let i = 0; i < 2; i++) t.is((await server.request('DELETE', '/api/v1/namespaces/default/configmaps/x', { token: alice.token })).status, 403);
    t.is(hooks.requestsTo(path).length, 4, 'with an unauthorized TTL of 0, refusals are asked again');
  } finally {
    await server.close();
  }
});

/** What a failing webhook does to a request no other authorizer allows, and to an access review of it. */
async function failing(t: import('ava').ExecutionContext, handler: WebhookHandler, cause: RegExp, callsEach = 1) {
  const { server, path } = await serverWith(handler, { timeoutMs: 1_000 });
  try {
    const res = await server.request('GET', '/api/v1/namespaces/default/configmaps/x', { token: alice.token });
    // kube's authorization filter: an authorizer error and no allow is an internal error
    t.is(res.status, 500, res.text);
    t.like(res.body, { kind: 'Status', reason: 'InternalError', code: 500 });
    t.regex(res.body.message, new RegExp(`^Internal error occurred: ${cause.source}$`));
    const review = await server.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'default' } } },
    });
    t.is(review.status, 201);
    t.false(review.body.status.allowed);
    t.regex(review.body.status.evaluationError, new RegExp(`^${cause.source}$`));
    t.is(hooks.requestsTo(path).length, 2 * callsEach, 'failures are not cached');
    // what RBAC allows is still allowed
    t.is((await server.request('GET', '/api/v1/namespaces')).status, 200);
  } finally {
    await server.close();
  }
}

const url = (path = '') => `Post "https://127\\.0\\.0\\.1:\\d+/authz-[^?]+\\?timeout=1s"${path}`;

test('a webhook that hangs: the call ends at its timeout, no opinion', async (t) => {
  const started = Date.now();
  await failing(t, () => 'hang', new RegExp(`${url()}: context deadline exceeded`));
  t.true(Date.now() - started < 10_000);
});

test('a webhook that answers garbage, an error status or closes the connection: no opinion, with client-go\'s error', async (t) => {
  await failing(t, () => ({ raw: 'not json', headers: { 'content-type': 'application/json' } }), /couldn't get version\/kind; json parse error: invalid character 'o' in literal null \(expecting 'u'\)/);
  await failing(t, () => ({ status: 500, raw: 'boom', headers: { 'content-type': 'text/plain' } }), /an error on the server \("boom"\) has prevented the request from succeeding/, 5);
  await failing(t, () => ({ status: 403, raw: 'no', headers: { 'content-type': 'text/plain' } }), /no/);
  await failing(t, () => ({ json: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: 'yes' } } }), /json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus\.status\.allowed of type bool/);
  await failing(t, () => 'close', new RegExp(`${url()}: EOF`));
});

test('transient failures (500, 429, 504) are retried with a backoff, as kube\'s webhook client', async (t) => {
  let calls = 0;
  const statuses = [500, 429, 504];
  const { server, path } = await serverWith((review) => (calls++ < statuses.length ? { status: statuses[calls - 1], raw: 'later', headers: { 'content-type': 'text/plain' } } : allowAliceReadingConfigMaps(review, '')));
  try {
    t.is((await server.request('GET', '/api/v1/namespaces/default/configmaps/x', { token: alice.token })).status, 404);
    t.is(hooks.requestsTo(path).length, 4);
  } finally {
    await server.close();
  }
});

test('failure policy Deny: a failing webhook denies, even what a later authorizer would allow', async (t) => {
  const path = `/authz-${suffix()}`;
  hooks.handle(path, () => ({ status: 503, raw: 'down', headers: { 'content-type': 'text/plain' } }));
  // A timeout that a busy test process cannot reach before the webhook's 503 (what this test is about) arrives.
  const webhook = webhookAuthorization({ name: 'strict', client: readKubeconfigClient(writeWebhookKubeconfig(hooks, path)), version: 'v1', timeoutMs: 10_000, authorizedTtlMs: 0, unauthorizedTtlMs: 0, decisionOnError: 'deny' });
  const server = await startTestServer({ storage: 'memory', authorizers: [webhook, rbacAuthorization()] });
  try {
    const review = await server.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'kapi-admin', groups: ['system:masters'], nonResourceAttributes: { verb: 'get', path: '/api' } } },
    });
    t.is(review.status, 500, 'the admin\'s own request is refused too: kube answers an internal error');
    t.regex(review.body.message, /^Internal error occurred: the server is currently unable to handle the request$/);
  } finally {
    await server.close();
  }
});

test('an answer with both allowed and denied is a denial with an error', async (t) => {
  const { server } = await serverWith((review) => reviewAnswer(review, { allowed: true, denied: true, reason: 'both' }));
  try {
    const res = await server.request('GET', '/api/v1/namespaces/default/configmaps/x', { token: alice.token });
    t.is(res.status, 500);
    t.is(res.body.message, 'Internal error occurred: webhook subject access review returned both allow and deny response');
  } finally {
    await server.close();
  }
});

test('SelfSubjectRulesReview: the webhook lists no rules, the review is incomplete with kube\'s evaluationError', async (t) => {
  const { server } = await serverWith(allowAliceReadingConfigMaps);
  try {
    const res = await server.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      token: alice.token,
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } },
    });
    t.is(res.status, 201);
    t.like(res.body.status, { incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' });
    t.true(res.body.status.resourceRules.length > 0, 'RBAC\'s rules (self reviews) are listed');
  } finally {
    await server.close();
  }
});

test('a list or watch is sent with its selectors as requirements (AuthorizeWithSelectors), and so is an access review\'s', async (t) => {
  // A webhook that lets alice list configmaps only by a field selector naming "settings".
  const settingsOnly = reviewer((spec) => {
    const fields = spec.resourceAttributes?.fieldSelector?.requirements ?? [];
    return spec.user === 'alice' && fields.some((r: { key: string; operator: string; values?: string[] }) => r.key === 'metadata.name' && r.operator === 'In' && r.values?.[0] === 'settings');
  });
  const { server, path } = await serverWith(settingsOnly);
  try {
    const base = '/api/v1/namespaces/default/configmaps';
    const mine = await server.request('GET', `${base}?fieldSelector=metadata.name%3Dsettings,metadata.namespace!%3Dx&labelSelector=app%20in%20(web,api),!canary,tier`, { token: alice.token });
    t.is(mine.status, 200, mine.text);
    t.is((await server.request('GET', `${base}?watch=true&labelSelector=app%3Dweb`, { token: alice.token })).status, 403);
    t.is((await server.request('GET', `${base}?fieldSelector=metadata.name%3Dsettings%3Db`, { token: alice.token })).status, 403, 'a selector that does not parse narrows nothing');
    const [listed, watched, unparsed] = hooks.requestsTo(path).map((r) => r.body.spec.resourceAttributes);
    t.deepEqual(listed, {
      namespace: 'default',
      verb: 'list',
      version: 'v1',
      resource: 'configmaps',
      name: 'settings',
      fieldSelector: { requirements: [{ key: 'metadata.name', operator: 'In', values: ['settings'] }, { key: 'metadata.namespace', operator: 'NotIn', values: ['x'] }] },
      labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['api', 'web'] }, { key: 'canary', operator: 'DoesNotExist' }, { key: 'tier', operator: 'Exists' }] },
    });
    t.deepEqual(watched, { namespace: 'default', verb: 'watch', version: 'v1', resource: 'configmaps', labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }] } });
    t.deepEqual(unparsed, { namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps' });

    // An access review's selectors, raw or as requirements, reach the webhook the same way.
    const review = (fieldSelector: unknown) => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'alice', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'configmaps', fieldSelector } },
    });
    const raw = await server.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { body: review({ rawSelector: 'metadata.name=settings' }) });
    t.like(raw.body.status, { allowed: true });
    const given = await server.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: review({ requirements: [{ key: 'metadata.name', operator: 'In', values: ['settings'] }, { key: 'x', operator: 'Exists' }] }),
    });
    t.like(given.body.status, { allowed: true });
    const reviewed = hooks.requestsTo(path).slice(3).map((r) => r.body.spec.resourceAttributes.fieldSelector);
    // The second is the first once its field requirement that kube cannot turn into a selector (Exists) is left out:
    // answered from the webhook's cache, by the same spec.
    t.deepEqual(reviewed, [{ requirements: [{ key: 'metadata.name', operator: 'In', values: ['settings'] }] }]);
  } finally {
    await server.close();
  }
});
