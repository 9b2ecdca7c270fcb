// Webhook token authentication (kube-apiserver's --authentication-token-webhook-config-file): bearer tokens kapi does
// not know are POSTed as TokenReviews to a real HTTPS webhook; its answer is the user, cached as kube caches it.
import test from 'ava';
import { webhookTokenAuth } from '../../index.js';
import { kubeconfigClient } from '../../plugins/auth/kubeconfig-client.js';
import { defaultIssuer, startTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookServer, type TestWebhookServer, type WebhookReply } from '../helpers/webhook-server.js';

let hooks: TestWebhookServer;
let server: TestServer;

/** The webhook's answers, by token; a token it does not know is a 500. */
const answers = new Map<string, WebhookReply | (() => WebhookReply)>();

function reviewed(status: Record<string, unknown>): WebhookReply {
  return { json: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', status } };
}

test.before(async () => {
  hooks = await startWebhookServer();
  hooks.handle('/authenticate', (review) => {
    const answer = answers.get(review?.spec?.token);
    if (!answer) return { status: 500, raw: 'unknown test token' };
    return typeof answer === 'function' ? answer() : answer;
  });
  const client = kubeconfigClient({ server: hooks.url('/authenticate'), caPem: Buffer.from(hooks.caBundle, 'base64').toString('utf8'), insecureSkipTlsVerify: false });
  server = await startTestServer({
    storage: 'memory',
    modules: [webhookTokenAuth({ client, version: 'v1beta1', cacheTtlMs: 60_000, timeoutMs: 1000, apiAudiences: [defaultIssuer] })],
  });
});

test.after.always(async () => {
  await server?.close();
  await hooks?.close();
});

const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

/** `kubectl auth whoami` with `token`. */
function whoami(token: string) {
  return server.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { token, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
}

function reviewsOf(token: string) {
  return hooks.requestsTo('/authenticate').filter((r) => r.body?.spec?.token === token);
}

test('a token the webhook vouches for is its user, in system:authenticated; the review is the version configured, for the API audiences', async (t) => {
  answers.set('carol-token', reviewed({ authenticated: true, user: { username: 'carol', uid: 'c-1', groups: ['devs'], extra: { scopes: ['read'] } } }));
  const res = await whoami('carol-token');
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.status.userInfo, { username: 'carol', uid: 'c-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['read'] } });
  const [review] = reviewsOf('carol-token');
  t.deepEqual(review!.body, {
    apiVersion: 'authentication.k8s.io/v1beta1',
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token: 'carol-token', audiences: [defaultIssuer] },
    status: { user: {} },
  });
  t.is(review!.query.timeout, '1s');
});

test('an answer is cached: the same token again does not reach the webhook', async (t) => {
  answers.set('dave-token', reviewed({ authenticated: true, user: { username: 'dave' } }));
  t.is((await whoami('dave-token')).status, 201);
  t.is((await whoami('dave-token')).status, 201);
  t.is(reviewsOf('dave-token').length, 1);
});

test('a refusal without an error is cached too; one with status.error is not', async (t) => {
  answers.set('refused-token', reviewed({ authenticated: false }));
  answers.set('erroring-token', reviewed({ authenticated: false, error: 'token expired' }));
  for (const token of ['refused-token', 'erroring-token']) {
    for (let i = 0; i < 2; i++) {
      const res = await whoami(token);
      t.is(res.status, 401);
      t.deepEqual(res.body, unauthorized);
    }
  }
  t.is(reviewsOf('refused-token').length, 1);
  t.is(reviewsOf('erroring-token').length, 2);
});

test('an answer for other audiences than the API\'s is no user: 401', async (t) => {
  answers.set('other-audience-token', reviewed({ authenticated: true, user: { username: 'eve' }, audiences: ['https://elsewhere.example'] }));
  answers.set('same-audience-token', reviewed({ authenticated: true, user: { username: 'frank' }, audiences: ['https://elsewhere.example', defaultIssuer] }));
  t.is((await whoami('other-audience-token')).status, 401);
  const same = await whoami('same-audience-token');
  t.is(same.status, 201, same.text);
  t.is(same.body.status.userInfo.username, 'frank');
});

test('a webhook that answers 500 is asked again (client-go\'s backoff), and its later answer counts', async (t) => {
  let calls = 0;
  answers.set('flaky-token', () => (++calls < 3 ? { status: 500, raw: 'try again' } : reviewed({ authenticated: true, user: { username: 'grace' } })));
  const res = await whoami('flaky-token');
  t.is(res.status, 201, res.text);
  t.is(res.body.status.userInfo.username, 'grace');
  t.is(reviewsOf('flaky-token').length, 3);
});

test('a webhook that hangs, answers garbage or refuses the call: 401, never a 500, and nothing cached', async (t) => {
  answers.set('hanging-token', 'hang');
  answers.set('garbage-token', { raw: 'not json' });
  answers.set('forbidden-token', { status: 403, json: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'forbidden', code: 403 } });
  for (const token of ['hanging-token', 'garbage-token', 'forbidden-token']) {
    const res = await whoami(token);
    t.is(res.status, 401, `${token}: ${res.text}`);
    t.deepEqual(res.body, unauthorized);
    t.is((await whoami(token)).status, 401);
    t.is(reviewsOf(token).length, 2, token);
  }
});

test('tokens kapi knows itself never reach the webhook', async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces');
  t.is(res.status, 200);
  t.is(reviewsOf(server.token).length, 0);
});
