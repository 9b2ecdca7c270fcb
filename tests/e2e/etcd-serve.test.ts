// `kapi serve --storage etcd`: two servers on one etcd, driven by kubectl, serve the same CRDs and objects.
import test from 'ava';
import { startEtcd, type EtcdCluster } from '../helpers/etcd-process.js';
import { describe, example, setUpWidgets, startKapi, table, type KapiProcess } from '../helpers/kapi-process.js';

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

test.serial('/readyz lists the etcd check', async (t) => {
  const readyz = await a!.kubectl(['get', '--raw', '/readyz?verbose']);
  t.is(readyz.code, 0, describe(readyz));
  t.regex(readyz.stdout, /^\[\+\]etcd ok$/m);
});
