// User story 9: data survives a restart on the same data directory, after SIGTERM and after SIGKILL.
import test from 'ava';
import { describe, example, removeDir, row, setUpWidgets, startKapi, table, tempDir, type KapiProcess } from '../helpers/kapi-process.js';

const dataDir = tempDir('kapi-e2e-restart-');
let kapi: KapiProcess | undefined;

test.before(async () => {
  kapi = await startKapi({ dataDir });
});

test.after.always(async () => {
  await kapi?.stop();
  removeDir(dataDir);
});

test.serial('after SIGTERM and a restart the CRD is served and w1 is still there', async (t) => {
  await setUpWidgets(kapi!);
  const apply = await kapi!.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(apply.code, 0, describe(apply));
  const before = JSON.parse((await kapi!.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'json'])).stdout);

  const firstUrl = kapi!.url;
  const stopped = await kapi!.stop();
  t.deepEqual(stopped, { code: 0, signal: null }, `kapi serve exits 0 on SIGTERM\n${kapi!.output()}`);

  kapi = await startKapi({ dataDir });
  t.not(kapi.url, firstUrl, 'a new port (the discovery cache cannot hide a missing CRD)');

  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1']);
  t.is(get.code, 0, describe(get));
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(get));
  t.deepEqual(rows[1]?.slice(0, 3), ['w1', 'blue', '3'], describe(get));

  const after = JSON.parse((await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'json'])).stdout);
  t.is(after.metadata.uid, before.metadata.uid);
  t.is(after.metadata.resourceVersion, before.metadata.resourceVersion);
  t.is(after.metadata.creationTimestamp, before.metadata.creationTimestamp);

  const resources = await kapi.kubectl(['api-resources', '--api-group=example.com', '--no-headers']);
  t.deepEqual(table(resources.stdout), [['widgets', 'wd,wdg', 'example.com/v1', 'true', 'Widget']], describe(resources));
  const ns = await kapi.kubectl(['get', 'ns', 'demo', '--no-headers']);
  t.is(row(table(ns.stdout), 'demo')?.[1], 'Active', describe(ns));

  // New writes continue after the old revisions.
  const label = await kapi.kubectl(['-n', 'demo', 'label', 'widget', 'w1', 'restarted=yes']);
  t.is(label.code, 0, describe(label));
  const rv = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'jsonpath={.metadata.resourceVersion}']);
  t.true(Number(rv.stdout) > Number(before.metadata.resourceVersion), `${rv.stdout} > ${before.metadata.resourceVersion}`);
});

test.serial('after SIGKILL right after an acknowledged apply the object is there after restart', async (t) => {
  const apply = await kapi!.kubectl(['-n', 'demo', 'apply', '-f', example('widgets.yaml')]);
  t.is(apply.code, 0, describe(apply));
  t.is(apply.stdout, 'widget.example.com/w2 created\nwidget.example.com/w3 created\n', describe(apply));
  const patch = await kapi!.kubectl(['-n', 'demo', 'patch', 'widget', 'w3', '--type=merge', '-p', '{"spec":{"color":"black"}}']);
  t.is(patch.code, 0, describe(patch));

  const killed = await kapi!.stop('SIGKILL');
  t.is(killed.signal, 'SIGKILL');

  kapi = await startKapi({ dataDir });
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '--no-headers']);
  t.is(get.code, 0, describe(get));
  t.deepEqual(
    table(get.stdout).map((r) => r.slice(0, 3)),
    [['w1', 'blue', '3'], ['w2', 'red', '1'], ['w3', 'black', '5']],
    describe(get),
  );

  // And the restarted server still accepts writes.
  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'w2', '--timeout=30s']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "w2" deleted\n', describe(del));
});
