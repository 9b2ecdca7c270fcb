/**
 * API Priority and Fairness over HTTP: a saturated priority level answers 429 (kube's plain-text answer, Retry-After)
 * while another flow is served; a Queue level queues and then rejects on a full queue; every classified response
 * names its FlowSchema and priority level; probes and system:masters are exempt; the mandatory objects come back
 * when deleted and the suggested ones are kept unless their autoupdate annotation is "false".
 */
import test from 'ava';
import { alwaysAllow } from '../../index.js';
import { expectStatus, useTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { heldRoute } from '../helpers/held-route.js';

const held = heldRoute();
const tenantA = { token: 'tenant-a-token', user: { username: 'tenant-a', groups: ['system:authenticated'] } };
const tenantB = { token: 'tenant-b-token', user: { username: 'tenant-b', groups: ['system:authenticated'] } };
// a server concurrency limit of 1: every Limited level gets one seat (ceil of its share)
const server = useTestServer({
  storage: 'memory',
  modules: [held.module],
  tokens: [tenantA, tenantB],
  authorizers: [alwaysAllow()],
  config: { maxRequestsInflight: 1, maxMutatingRequestsInflight: 0 },
});

const flowcontrol = '/apis/flowcontrol.apiserver.k8s.io/v1';
const fsUid = 'x-kubernetes-pf-flowschema-uid';
const plUid = 'x-kubernetes-pf-prioritylevel-uid';

/** A priority level and a FlowSchema sending every request of `user` to it; resolves once requests are classified so. */
async function dedicatedLevel(s: TestServer, name: string, user: string, limitResponse: object): Promise<{ fs: string; pl: string }> {
  const pl = await s.request('POST', `${flowcontrol}/prioritylevelconfigurations`, {
    body: { metadata: { name }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse } } },
  });
  const fs = await s.request('POST', `${flowcontrol}/flowschemas`, {
    body: {
      metadata: { name },
      spec: {
        priorityLevelConfiguration: { name },
        matchingPrecedence: 50,
        distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: user } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }],
      },
    },
  });
  const uids = { fs: fs.body.metadata.uid as string, pl: pl.body.metadata.uid as string };
  await s.waitFor(async () => (await s.request('GET', '/version', { token: tokenOf(user) })).headers[fsUid] === uids.fs, 10_000, 'the new FlowSchema classifies');
  return uids;
}

const tokenOf = (user: string) => (user === 'tenant-a' ? tenantA.token : tenantB.token);

/** The FlowSchema and priority level a response names. */
const classification = (res: TestResponse) => ({ fs: res.headers[fsUid], pl: res.headers[plUid] });

async function uidOf(s: TestServer, kind: 'flowschemas' | 'prioritylevelconfigurations', name: string): Promise<string> {
  return (await s.request('GET', `${flowcontrol}/${kind}/${name}`)).body.metadata.uid;
}

test.serial('a saturated Reject level answers 429 with Retry-After while another flow and health probes are served', async (t) => {
  const a = await dedicatedLevel(server, 'tenant-a', 'tenant-a', { type: 'Reject' });
  const first = server.request('GET', held.path, { token: tenantA.token });
  await server.waitFor(() => held.held === 1, 10_000, 'the first request holds the seat');

  const refused = await server.request('GET', '/version', { token: tenantA.token });
  t.is(refused.status, 429);
  t.is(refused.text, 'Too many requests, please try again later.\n');
  t.is(refused.headers['content-type'], 'text/plain; charset=utf-8');
  t.is(refused.headers['retry-after'], '1');
  t.deepEqual(classification(refused), a, 'the 429 names the FlowSchema and priority level');

  const other = await server.request('GET', '/version', { token: tenantB.token });
  t.is(other.status, 200, 'another flow (global-default) is served');
  t.deepEqual(classification(other), { fs: await uidOf(server, 'flowschemas', 'global-default'), pl: await uidOf(server, 'prioritylevelconfigurations', 'global-default') });

  const probe = await server.request('GET', '/healthz', { token: tenantA.token });
  t.is(probe.status, 200, 'health probes are exempt');
  t.deepEqual(classification(probe), { fs: await uidOf(server, 'flowschemas', 'probes'), pl: await uidOf(server, 'prioritylevelconfigurations', 'exempt') });

  const admin = await server.request('GET', '/version');
  t.is(admin.status, 200, 'system:masters is exempt');
  t.is(admin.headers[fsUid], await uidOf(server, 'flowschemas', 'exempt'));

  const metrics = (await server.request('GET', '/metrics')).text;
  t.regex(metrics, /^apiserver_flowcontrol_rejected_requests_total\{priority_level="tenant-a",reason="concurrency-limit"\} 1$/m);
  t.regex(metrics, /^apiserver_flowcontrol_current_executing_requests\{priority_level="tenant-a"\} 1$/m);
  t.regex(metrics, /^apiserver_flowcontrol_nominal_limit_seats\{priority_level="tenant-a"\} \d+$/m);

  held.releaseAll();
  t.is((await first).status, 200);
  t.is((await server.request('GET', '/version', { token: tenantA.token })).status, 200, 'the seat is free again');
  t.regex((await server.request('GET', '/metrics')).text, /^apiserver_flowcontrol_dispatched_requests_total\{priority_level="tenant-a"\} [2-9]$/m);
});

test.serial('a watch holds its seat only until its response starts', async (t) => {
  // tenant-a's resource requests go to its one-seat Reject level too
  const fs = await server.request('POST', `${flowcontrol}/flowschemas`, {
    body: {
      metadata: { name: 'tenant-a-resources' },
      spec: {
        priorityLevelConfiguration: { name: 'tenant-a' },
        matchingPrecedence: 60,
        rules: [{ subjects: [{ kind: 'User', user: { name: 'tenant-a' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }],
      },
    },
  });
  t.is(fs.status, 201, fs.text);
  const list = '/api/v1/namespaces/default/configmaps';
  await server.waitFor(async () => (await server.request('GET', list, { token: tenantA.token })).headers[fsUid] === fs.body.metadata.uid, 10_000, 'classified');
  const watch = await server.watch(`${list}?watch=true`, { token: tenantA.token });
  t.teardown(() => watch.close());
  t.is(watch.status, 200);
  t.is(watch.headers[fsUid], fs.body.metadata.uid);
  const read = await server.request('GET', list, { token: tenantA.token });
  t.is(read.status, 200, 'the open watch does not hold the level\'s one seat');
});

test.serial('a Queue level queues a request until a seat frees, and rejects one its full queue cannot take', async (t) => {
  const b = await dedicatedLevel(server, 'tenant-b', 'tenant-b', { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } });
  const first = server.request('GET', held.path, { token: tenantB.token });
  await server.waitFor(() => held.held === 1, 10_000, 'the first request holds the seat');
  let queuedDone = false;
  const queued = server.request('GET', '/version', { token: tenantB.token }).finally(() => (queuedDone = true));
  // the queued request waits: give the server the time to answer it if it were not queued
  await server.request('GET', '/healthz');
  const full = await server.request('GET', '/version', { token: tenantB.token });
  t.is(full.status, 429, 'the queue holds one request');
  t.deepEqual(classification(full), b);
  t.false(queuedDone, 'the queued request is still waiting');
  held.releaseAll();
  t.is((await first).status, 200);
  const served = await queued;
  t.is(served.status, 200, 'the queued request is served once the seat is free');
  t.deepEqual(classification(served), b);
});

test.serial('kube bootstrap objects are served with status; a deleted mandatory object comes back', async (t) => {
  const names = (res: TestResponse) => (res.body.items as { metadata: { name: string } }[]).map((o) => o.metadata.name).sort();
  const schemas = await server.request('GET', `${flowcontrol}/flowschemas`);
  for (const name of ['exempt', 'catch-all', 'probes', 'system-leader-election', 'endpoint-controller', 'workload-leader-election', 'system-node-high', 'system-nodes']) {
    t.true(names(schemas).includes(name), name);
  }
  for (const name of ['kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts', 'service-accounts', 'global-default']) t.true(names(schemas).includes(name), name);
  const levels = await server.request('GET', `${flowcontrol}/prioritylevelconfigurations`);
  for (const name of ['exempt', 'catch-all', 'system', 'node-high', 'leader-election', 'workload-high', 'workload-low', 'global-default']) t.true(names(levels).includes(name), name);
  const catchAll = await server.waitFor(async () => {
    const res = await server.request('GET', `${flowcontrol}/flowschemas/catch-all`);
    return res.body.status?.conditions?.length ? res.body : undefined;
  });
  t.like(catchAll.status.conditions[0], { type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "catch-all" and it exists' });
  t.is(catchAll.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');

  for (const kind of ['flowschemas', 'prioritylevelconfigurations'] as const) {
    const before = await uidOf(server, kind, 'exempt');
    t.is((await server.request('DELETE', `${flowcontrol}/${kind}/exempt`)).status, 200);
    const after = await server.waitFor(async () => {
      const res = await server.request('GET', `${flowcontrol}/${kind}/exempt`);
      return res.status === 200 ? (res.body.metadata.uid as string) : undefined;
    });
    t.not(after, before, `${kind}/exempt is recreated`);
  }
});

test.serial('a suggested object changed by hand is restored unless its autoupdate-spec annotation is "false"', async (t) => {
  const path = `${flowcontrol}/flowschemas/service-accounts`;
  const patch = (body: object) => server.request('PATCH', path, { body, contentType: 'application/merge-patch+json' });
  t.is((await patch({ spec: { matchingPrecedence: 8000 } })).status, 200);
  await server.waitFor(async () => (await server.request('GET', path)).body.spec.matchingPrecedence === 9000, 10_000, 'restored');
  t.is((await patch({ metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { matchingPrecedence: 8000 } })).status, 200);
  // a change of another object makes the controller look again; it leaves this one alone
  await patch({ metadata: { labels: { touched: 'yes' } } });
  await server.request('PATCH', `${flowcontrol}/flowschemas/global-default`, { body: { metadata: { labels: { touched: 'yes' } } }, contentType: 'application/merge-patch+json' });
  await server.waitFor(async () => (await server.request('GET', `${flowcontrol}/flowschemas/global-default`)).body.metadata.labels?.touched === 'yes');
  t.is((await server.request('GET', path)).body.spec.matchingPrecedence, 8000);
});

test.serial('FlowSchema and PriorityLevelConfiguration validation as kube words it', async (t) => {
  const fs = await server.request('POST', `${flowcontrol}/flowschemas`, {
    body: { metadata: { name: 'bad' }, spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 20000, rules: [{ subjects: [] }] } },
  });
  expectStatus(t, fs, { code: 422, reason: 'Invalid' });
  t.is(
    fs.body.message,
    'FlowSchema.flowcontrol.apiserver.k8s.io "bad" is invalid: [spec.matchingPrecedence: Invalid value: 20000: must not be greater than 10000, spec.rules[0].subjects: Required value: subjects must contain at least one value, spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty]',
  );
  const pl = await server.request('POST', `${flowcontrol}/prioritylevelconfigurations`, {
    body: { metadata: { name: 'bad' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 3 } } } } },
  });
  expectStatus(t, pl, {
    code: 422,
    reason: 'Invalid',
    message: 'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad" is invalid: spec.limited.limitResponse.queuing.handSize: Invalid value: 3: should not be greater than queues (2)',
  });
  const mandatory = await server.request('PATCH', `${flowcontrol}/flowschemas/catch-all`, { body: { spec: { matchingPrecedence: 9999 } }, contentType: 'application/merge-patch+json' });
  expectStatus(t, mandatory, { code: 422, reason: 'Invalid' });
  t.regex(mandatory.body.message, /spec: Invalid value: .*: spec of 'catch-all' must equal the fixed value/);
});

test.serial("kube's v1 defaults: matchingPrecedence 1000, a Limited level's shares 30 and queuing 64/8/50", async (t) => {
  const pl = await server.request('POST', `${flowcontrol}/prioritylevelconfigurations?dryRun=All`, {
    body: { metadata: { name: 'defaults' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } },
  });
  t.is(pl.status, 201, pl.text);
  t.deepEqual(pl.body.spec, {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } },
  });
  const fs = await server.request('POST', `${flowcontrol}/flowschemas?dryRun=All`, { body: { metadata: { name: 'defaults' }, spec: { priorityLevelConfiguration: { name: 'defaults' } } } });
  t.is(fs.status, 201, fs.text);
  t.is(fs.body.spec.matchingPrecedence, 1000);
  t.deepEqual(fs.body.status, {});
});

test.serial('FlowSchemas and priority levels are served as protobuf (what client-go informers ask for)', async (t) => {
  for (const kind of ['flowschemas', 'prioritylevelconfigurations']) {
    const res = await server.request('GET', `${flowcontrol}/${kind}/exempt`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    t.is(res.status, 200, res.text);
    t.is(res.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    t.true(res.text.startsWith('k8s\0'), 'kube\'s protobuf envelope');
    t.true(res.text.includes('exempt'));
  }
});
