// User stories 4 and 5: custom resources applied and read back with kubectl.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, example, table, tempFile, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

const age = /^\d+[smhd]/;
const widgetYaml = readFileSync(example('widget.yaml'), 'utf8');

test.serial('apply creates w1', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 created\n', describe(res));
});

test.serial('apply after changing spec.color prints configured', async (t) => {
  const file = tempFile('widget.yaml', widgetYaml.replace('color: blue', 'color: green'));
  const res = await kapi.kubectl(['-n', 'demo', 'apply', '-f', file]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 configured\n', describe(res));
  const color = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'jsonpath={.spec.color}']);
  t.is(color.stdout, 'green', describe(color));
});

test.serial('apply of the original file changes it back; applying it again prints unchanged', async (t) => {
  const back = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(back.code, 0, describe(back));
  t.is(back.stdout, 'widget.example.com/w1 configured\n', describe(back));
  const res = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 unchanged\n', describe(res));
});

test.serial('apply -f - reads from stdin', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'apply', '-f', '-'], { stdin: widgetYaml });
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 unchanged\n', describe(res));
});

test.serial('get widgets prints the printer columns', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widgets']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(res));
  t.is(rows.length, 2, describe(res));
  t.deepEqual(rows[1]?.slice(0, 3), ['w1', 'blue', '3'], describe(res));
  t.regex(rows[1]?.[3] ?? '', age, describe(res));
});

test.serial('get by short names, singular and fully qualified names', async (t) => {
  for (const resource of ['wd', 'wdg', 'widget', 'widgets.example.com', 'widgets.v1.example.com', 'Widget']) {
    const res = await kapi.kubectl(['-n', 'demo', 'get', resource, '--no-headers']);
    t.is(res.code, 0, `${resource}: ${describe(res)}`);
    t.deepEqual(table(res.stdout).map((r) => r.slice(0, 3)), [['w1', 'blue', '3']], `${resource}: ${describe(res)}`);
  }
});

test.serial('get widgets -A adds a NAMESPACE column', async (t) => {
  const res = await kapi.kubectl(['get', 'widgets', '-A']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAMESPACE', 'NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(res));
  t.deepEqual(rows[1]?.slice(0, 4), ['demo', 'w1', 'blue', '3'], describe(res));
  t.is(rows.length, 2, describe(res));
});

test.serial('get widget w1 -o yaml has the object with its metadata', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'yaml']);
  t.is(res.code, 0, describe(res));
  const obj = parse(res.stdout);
  t.is(obj.apiVersion, 'example.com/v1');
  t.is(obj.kind, 'Widget');
  t.is(obj.metadata.name, 'w1');
  t.is(obj.metadata.namespace, 'demo');
  t.regex(obj.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.regex(obj.metadata.resourceVersion, /^\d+$/);
  t.regex(obj.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.is(obj.metadata.generation, 3, 'created, then two spec changes');
  t.deepEqual(obj.metadata.labels, { tier: 'gold' });
  t.deepEqual(obj.spec, { color: 'blue', replicas: 3 });
  t.truthy(obj.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'], 'client-side apply annotation');
  for (const key of ['apiVersion: example.com/v1', 'kind: Widget', '  name: w1', '  namespace: demo', '  uid: ', '  resourceVersion: ', '  creationTimestamp: ', 'spec:']) {
    t.true(res.stdout.includes(key), `${key} in\n${res.stdout}`);
  }
});

test.serial('get widget w1 -o json parses', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'json']);
  t.is(res.code, 0, describe(res));
  const obj = JSON.parse(res.stdout);
  t.like(obj, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'demo' }, spec: { color: 'blue', replicas: 3 } });
});

test.serial('get widgets -o json is a List', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-o', 'json']);
  t.is(res.code, 0, describe(res));
  const list = JSON.parse(res.stdout);
  t.is(list.kind, 'List');
  t.deepEqual(list.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['w1']);
  t.is(list.items[0].kind, 'Widget');
  t.is(list.items[0].apiVersion, 'example.com/v1');
});

test.serial("get -o jsonpath='{.spec.color}' prints blue", async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'jsonpath={.spec.color}']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'blue', describe(res));
});

test.serial('-o name and custom-columns', async (t) => {
  const name = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-o', 'name']);
  t.is(name.code, 0, describe(name));
  t.is(name.stdout, 'widget.example.com/w1\n', describe(name));
  const cols = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-o', 'custom-columns=N:.metadata.name,C:.spec.color']);
  t.is(cols.code, 0, describe(cols));
  t.deepEqual(table(cols.stdout), [['N', 'C'], ['w1', 'blue']], describe(cols));
});

test.serial('get widgets -l selects by label', async (t) => {
  const more = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widgets.yaml')]);
  t.is(more.code, 0, describe(more));
  t.is(more.stdout, 'widget.example.com/w2 created\nwidget.example.com/w3 created\n', describe(more));

  const gold = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-l', 'tier=gold']);
  t.is(gold.code, 0, describe(gold));
  const rows = table(gold.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(gold));
  t.deepEqual(rows.slice(1).map((r) => r.slice(0, 3)), [['w1', 'blue', '3'], ['w3', 'green', '5']], describe(gold));

  const notGold = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-l', 'tier!=gold', '--no-headers']);
  t.is(notGold.code, 0, describe(notGold));
  t.deepEqual(table(notGold.stdout).map((r) => r[0]), ['w2'], describe(notGold));

  const set = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-l', 'tier in (silver,bronze)', '-o', 'name']);
  t.is(set.code, 0, describe(set));
  t.is(set.stdout, 'widget.example.com/w2\n', describe(set));

  const none = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-l', 'tier=platinum']);
  t.is(none.code, 0, describe(none));
  t.is(none.stdout, '', describe(none));
  t.is(none.stderr, 'No resources found in demo namespace.\n', describe(none));

  const all = await kapi.kubectl(['get', 'widgets', '-A', '-l', 'tier=gold', '--no-headers']);
  t.is(all.code, 0, describe(all));
  t.deepEqual(table(all.stdout).map((r) => r.slice(0, 2)), [['demo', 'w1'], ['demo', 'w3']], describe(all));
});

test.serial('get widgets --field-selector metadata.name', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '--field-selector', 'metadata.name=w2', '-o', 'name']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w2\n', describe(res));
});

test.serial('get widgets in another namespace finds none', async (t) => {
  const res = await kapi.kubectl(['-n', 'default', 'get', 'widgets']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, '', describe(res));
  t.is(res.stderr, 'No resources found in default namespace.\n', describe(res));
});

test.serial('get all (category) includes widgets', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'all', '-o', 'name']);
  t.is(res.code, 0, describe(res));
  t.deepEqual(res.stdout.trim().split('\n').sort(), ['widget.example.com/w1', 'widget.example.com/w2', 'widget.example.com/w3'], describe(res));
});
