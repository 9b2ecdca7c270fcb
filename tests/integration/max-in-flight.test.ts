/**
 * `--enable-priority-and-fairness=false`: kube's max-in-flight filter. Over the read-only limit a request is a 429
 * (plain text, Retry-After 1) unless its user is in system:masters; mutating requests have their own limit; no
 * priority-and-fairness headers.
 */
import test from 'ava';
import { alwaysAllow } from '../../index.js';
import { useTestServer } from '../helpers/test-server.js';
import { heldRoute } from '../helpers/held-route.js';

const held = heldRoute();
const tenant = { token: 'tenant-token', user: { username: 'tenant', groups: ['system:authenticated'] } };
const server = useTestServer({
  storage: 'memory',
  modules: [held.module],
  tokens: [tenant],
  authorizers: [alwaysAllow()],
  config: { enablePriorityAndFairness: false, maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 },
});

test.serial('over the read-only limit: 429 for a tenant, served for system:masters and for a mutating request', async (t) => {
  const first = server.request('GET', held.path, { token: tenant.token });
  await server.waitFor(() => held.held === 1, 10_000, 'the first request is in flight');

  const refused = await server.request('GET', '/version', { token: tenant.token });
  t.is(refused.status, 429);
  t.is(refused.text, 'Too many requests, please try again later.\n');
  t.is(refused.headers['retry-after'], '1');
  t.is(refused.headers['x-kubernetes-pf-flowschema-uid'], undefined);

  t.is((await server.request('GET', '/version')).status, 200, 'system:masters always gets an answer');
  const write = await server.request('POST', '/api/v1/namespaces/default/configmaps', { token: tenant.token, body: { metadata: { name: 'cm' } } });
  t.is(write.status, 201, 'mutating requests count against their own limit');

  held.releaseAll();
  t.is((await first).status, 200);
  const after = await server.request('GET', '/version', { token: tenant.token });
  t.is(after.status, 200);
  t.is(after.headers['x-kubernetes-pf-flowschema-uid'], undefined, 'no priority and fairness headers');
});
