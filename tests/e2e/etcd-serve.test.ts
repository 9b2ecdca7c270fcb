// `kapi serve --storage etcd`: two servers on one etcd, driven by kubectl, serve the same CRDs and objects.
import test from 'ava';
import { startEtcd, type EtcdCluster } from '../helpers/etcd-process.js';
import { describe, eventually, example, setUpWidgets, startKapi, table, type KapiProcess } from '../helpers/kapi-process.js';

let etcd: EtcdCluster | undefined;
let a: KapiProcess | undefined;
let b: KapiProcess | undefined;

test.before(async () => {
  etcd = await startEtcd();
  const args = ['--storage', 'etcd', '--etcd-servers', etcd.endpoints.join(',')];
  [a, b] = await Promise.all([startKapi({ args }), startKapi({ args })]);
});

test.after.always(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await etcd?.close();
});

test.serial('a widget applied with kubectl through one server is listed by kubectl through the other', async (t) => {
  await setUpWidgets(a!);
  const apply = await a!.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(apply.code, 0, describe(apply));
  const created = JSON.parse((await a!.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'json'])).stdout);

  const get = await b!.kubectl(['-n', 'demo', 'get', 'widgets']);
  t.is(get.code, 0, describe(get));
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(get));
  t.deepEqual(rows[1]?.slice(0, 3), ['w1', 'blue', '3'], describe(get));
  const seen = JSON.parse((await b!.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'json'])).stdout);
  t.is(seen.metadata.uid, created.metadata.uid);
  t.is(seen.metadata.resourceVersion, created.metadata.resourceVersion);

  const deleted = await b!.kubectl(['-n', 'demo', 'delete', 'widget', 'w1']);
  t.is(deleted.code, 0, describe(deleted));
  const gone = await a!.kubectl(['-n', 'demo', 'get', 'widget', 'w1']);
  t.not(gone.code, 0);
  t.regex(gone.stderr, /NotFound|not found/);
});

test.serial("the health endpoints list kube-apiserver's etcd checks", async (t) => {
  const readyz = await a!.kubectl(['get', '--raw', '/readyz?verbose']);
  t.is(readyz.code, 0, describe(readyz));
  t.regex(readyz.stdout, /^\[\+\]ping ok\n\[\+\]etcd ok\n\[\+\]etcd-readiness ok$/m);
  const livez = await a!.kubectl(['get', '--raw', '/livez?verbose']);
  t.is(livez.code, 0, describe(livez));
  t.is(livez.stdout, '[+]ping ok\n[+]etcd ok\nlivez check passed\n');
  const one = await a!.kubectl(['get', '--raw', '/readyz/etcd-readiness']);
  t.is(one.stdout, 'ok', describe(one));
});

test.serial('--etcd-compaction-interval 1s: history older than the last compaction is gone (410 Expired)', async (t) => {
  const c = await startKapi({ args: ['--storage', 'etcd', '--etcd-servers', etcd!.endpoints.join(','), '--etcd-compaction-interval', '1s'] });
  t.teardown(() => c.stop());
  await setUpWidgets(c, 'history');
  const applied = await c.kubectl(['-n', 'history', 'apply', '-f', example('widget.yaml')]);
  t.is(applied.code, 0, describe(applied));
  const rv = (await c.kubectl(['-n', 'history', 'get', 'widget', 'w1', '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
  const patched = await c.kubectl(['-n', 'history', 'patch', 'widget', 'w1', '--type', 'merge', '-p', '{"spec":{"replicas":4}}']);
  t.is(patched.code, 0, describe(patched));
  // An exact list is served by etcd at that revision: it works until a compaction passes it (within two intervals).
  const exact = `/apis/example.com/v1/namespaces/history/widgets?resourceVersion=${rv}&resourceVersionMatch=Exact`;
  const before = await c.kubectl(['get', '--raw', exact]);
  t.is(before.code, 0, describe(before));
  t.is(JSON.parse(before.stdout).items[0]?.spec?.replicas, 3);
  const after = await eventually(() => c.kubectl(['get', '--raw', exact]), (r) => r.code !== 0, 10_000);
  t.regex(after.stderr, /Error from server \(Expired\)/, describe(after));
});
