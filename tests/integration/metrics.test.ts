/** /metrics: kube-apiserver's metric names, types, labels and buckets after a scripted series of requests, and who may read it. */
import test from 'ava';
import { createNamespace, useTestServer, type TestServer } from '../helpers/test-server.js';
import { parsePrometheusText, valueOf, type Scrape } from '../helpers/prometheus-text.js';

const server = useTestServer({
  tokens: [
    { token: 'nobody-token', user: { username: 'nobody', groups: [] } },
    { token: 'monitor-token', user: { username: 'prometheus', groups: ['system:monitoring'] } },
  ],
});

async function scrape(s: TestServer): Promise<Scrape> {
  const res = await s.request('GET', '/metrics');
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status} ${res.text}`);
  return parsePrometheusText(res.text);
}

const configMaps = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
const request = (verb: string, scope: string, code: string, dryRun = '') => ({
  verb,
  dry_run: dryRun,
  group: '',
  version: 'v1',
  resource: 'configmaps',
  subresource: '',
  scope,
  component: 'apiserver',
  code,
});
const duration = ({ code: _, ...labels }: Record<string, string>) => labels;

// Serial: the counts are deltas of the whole server's counters.
test.serial('create, get, list, a 404, a dry run, an apply and a watch are counted with kube\'s verbs, scopes, dry_run and codes', async (t) => {
  const ns = await createNamespace(server, 'metrics');
  const before = await scrape(server);
  const created = await server.request('POST', configMaps(ns), { body: configMap('one') });
  t.is(created.status, 201, created.text);
  t.is((await server.request('GET', configMaps(ns, 'one'))).status, 200);
  t.is((await server.request('GET', configMaps(ns))).status, 200);
  t.is((await server.request('GET', configMaps(ns, 'missing'))).status, 404);
  t.is((await server.request('POST', `${configMaps(ns)}?dryRun=All`, { body: configMap('dry') })).status, 201);
  const applied = await server.request('PATCH', `${configMaps(ns, 'applied')}?fieldManager=test`, {
    rawBody: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n',
    contentType: 'application/apply-patch+yaml',
  });
  t.is(applied.status, 201, applied.text);
  // Not counted, as kube counts requests that reach a handler: an unknown path, a request the authorizer refuses.
  t.is((await server.request('GET', '/no/such/path')).status, 404);
  t.is((await server.request('GET', configMaps(ns), { token: 'nobody-token' })).status, 403);

  const watchLabels = { verb: 'WATCH', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'namespace', component: 'apiserver' };
  const watch = await server.watch(`${configMaps(ns)}?watch=true&resourceVersion=${created.body.metadata.resourceVersion}`);
  t.is(valueOf(await scrape(server), 'apiserver_longrunning_requests', watchLabels), 1);
  t.is((await server.request('POST', configMaps(ns), { body: configMap('two') })).status, 201);
  t.is((await watch.next()).object.metadata.name, 'applied');
  t.is((await watch.next()).object.metadata.name, 'two');
  watch.close();
  const after = await server.waitFor(async () => {
    const now = await scrape(server);
    const watchesEnded = valueOf(now, 'apiserver_request_total', request('WATCH', 'namespace', '200')) - valueOf(before, 'apiserver_request_total', request('WATCH', 'namespace', '200'));
    return watchesEnded > 0 ? now : undefined;
  });

  const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
  t.is(delta('apiserver_request_total', request('POST', 'resource', '201')), 2);
  t.is(delta('apiserver_request_total', request('POST', 'resource', '201', 'All')), 1);
  t.is(delta('apiserver_request_total', request('GET', 'resource', '200')), 1);
  t.is(delta('apiserver_request_total', request('GET', 'resource', '404')), 1);
  t.is(delta('apiserver_request_total', request('LIST', 'namespace', '200')), 1);
  t.is(delta('apiserver_request_total', request('APPLY', 'resource', '201')), 1);
  t.is(delta('apiserver_request_total', request('WATCH', 'namespace', '200')), 1);
  t.is(delta('apiserver_request_total', request('LIST', 'namespace', '403')), 0);
  t.false(after.samples.some((s) => s.labels['subresource'] === '/no/such/path'));
  t.is(delta('apiserver_request_duration_seconds_count', duration(request('GET', 'resource', '200'))), 2); // the 200 and the 404
  t.is(valueOf(after, 'apiserver_longrunning_requests', watchLabels), 0);
  t.is(delta('apiserver_watch_events_total', { group: '', version: 'v1', resource: 'configmaps' }), 2);
  t.is(delta('apiserver_watch_events_sizes_count', { group: '', version: 'v1', resource: 'configmaps' }), 2);
  // the dry run is not stored
  t.is(delta('etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' }), 3);
  t.true(delta('apiserver_admission_step_admission_duration_seconds_count', { type: 'admit', operation: 'CREATE', rejected: 'false' }) >= 4);
  t.true(delta('apiserver_admission_step_admission_duration_seconds_count', { type: 'validate', operation: 'CREATE', rejected: 'false' }) >= 4);
  // non-resource requests are labelled by their path alone
  t.true(delta('apiserver_request_total', { verb: 'GET', dry_run: '', group: '', version: '', resource: '', subresource: '/metrics', scope: '', component: 'apiserver', code: '200' }) >= 2);
});

test.serial('apiserver_watch_events_sizes counts each event sent in its size bucket, and its bytes in the sum', async (t) => {
  const ns = await createNamespace(server, 'metrics');
  const labels = { group: '', version: 'v1', resource: 'configmaps' };
  const bucket = (scrape: Scrape, le: string) => valueOf(scrape, 'apiserver_watch_events_sizes_bucket', { ...labels, le });
  const watch = await server.watch(`${configMaps(ns)}?watch=true&resourceVersion=0`);
  const before = await scrape(server);
  t.is((await server.request('POST', configMaps(ns), { body: configMap('small') })).status, 201);
  const big = { ...configMap('big'), data: { a: 'x'.repeat(3000) } };
  t.is((await server.request('POST', configMaps(ns), { body: big })).status, 201);
  const sent = [await watch.next(), await watch.next()].map((e) => Buffer.byteLength(`${JSON.stringify(e)}\n`));
  watch.close();
  const after = await scrape(server);
  const delta = (name: string) => valueOf(after, name, labels) - valueOf(before, name, labels);
  t.deepEqual(
    ['1024', '2048', '4096', '8192', '+Inf'].map((le) => bucket(after, le) - bucket(before, le)),
    [1, 1, 2, 2, 2],
  );
  t.is(delta('apiserver_watch_events_sizes_count'), 2);
  t.is(delta('apiserver_watch_events_total'), 2);
  // The events as sent (JSON lines); the client's re-serialization of them has the same length.
  t.is(delta('apiserver_watch_events_sizes_sum'), sent[0]! + sent[1]!);
});

test.serial('apiserver_storage_objects counts the stored objects of each resource', async (t) => {
  const ns = await createNamespace(server, 'metrics');
  await server.request('POST', configMaps(ns), { body: configMap('counted') });
  await server.waitFor(async () => {
    const listed = (await server.request('GET', '/api/v1/configmaps')).body.items.length;
    return valueOf(await scrape(server), 'apiserver_storage_objects', { resource: 'configmaps' }) === listed;
  });
  t.true(valueOf(await scrape(server), 'apiserver_storage_objects', { resource: 'namespaces' }) >= 1);
});

test('metric types and buckets are kube\'s; process and Node.js runtime metrics are there', async (t) => {
  const now = await scrape(server);
  for (const [name, type] of [
    ['apiserver_request_total', 'counter'],
    ['apiserver_request_duration_seconds', 'histogram'],
    ['apiserver_current_inflight_requests', 'gauge'],
    ['apiserver_longrunning_requests', 'gauge'],
    ['apiserver_watch_events_total', 'counter'],
    ['apiserver_watch_events_sizes', 'histogram'],
    ['apiserver_storage_objects', 'gauge'],
    ['etcd_request_duration_seconds', 'histogram'],
    ['apiserver_admission_step_admission_duration_seconds', 'histogram'],
    ['apiserver_admission_webhook_admission_duration_seconds', 'histogram'],
    ['process_cpu_seconds_total', 'counter'],
    ['process_resident_memory_bytes', 'gauge'],
    ['nodejs_heap_size_used_bytes', 'gauge'],
  ] as const) {
    t.is(now.types.get(name), type, name);
  }
  const buckets = (name: string) => [...new Set(now.samples.filter((s) => s.name === `${name}_bucket`).map((s) => s.labels['le']))];
  t.deepEqual(buckets('apiserver_request_duration_seconds'), ['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf']);
  t.deepEqual(buckets('etcd_request_duration_seconds'), buckets('apiserver_request_duration_seconds'));
  t.deepEqual(buckets('apiserver_watch_events_sizes'), ['1024', '2048', '4096', '8192', '16384', '32768', '65536', '131072', '+Inf']);
  // the scrape itself is a read-only request in flight
  t.true(valueOf(now, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }) >= 1);
  t.true(now.samples.some((s) => s.name === 'apiserver_current_inflight_requests' && s.labels['request_kind'] === 'mutating'));
});

test('/metrics is a nonResourceURL the authorizer decides on: 403 for a user without the system:monitoring role', async (t) => {
  const denied = await server.request('GET', '/metrics', { token: 'nobody-token' });
  t.is(denied.status, 403);
  t.like(denied.body, { kind: 'Status', reason: 'Forbidden', message: 'forbidden: User "nobody" cannot get path "/metrics"', code: 403 });
  const monitor = await server.request('GET', '/metrics', { token: 'monitor-token' });
  t.is(monitor.status, 200, monitor.text);
  t.is(monitor.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  t.true(monitor.text.includes('# TYPE apiserver_request_total counter'));
});

test('the system:monitoring ClusterRole and its binding to the group system:monitoring are bootstrapped as in kube', async (t) => {
  const role = await server.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:monitoring');
  t.is(role.status, 200, role.text);
  t.deepEqual(role.body.rules, [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*', '/statusz', '/flagz'] }]);
  const binding = await server.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:monitoring');
  t.is(binding.status, 200, binding.text);
  t.deepEqual(binding.body.subjects, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:monitoring' }]);
});
