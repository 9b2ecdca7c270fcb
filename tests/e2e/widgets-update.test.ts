// User story 6: updating a custom resource without `kubectl edit` — label, annotate, patch (merge, json), replace.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { describe, example, tempFile, useKapi, type KubectlResult } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

test.before(async () => {
  const res = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  if (res.code !== 0) throw new Error(describe(res));
});

async function getW1(): Promise<any> {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'json']);
  if (res.code !== 0) throw new Error(describe(res));
  return JSON.parse(res.stdout);
}

function ok(t: { is: (a: unknown, b: unknown, m?: string) => void }, res: KubectlResult, stdout: string) {
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, stdout, describe(res));
}

test.serial('label adds a label', async (t) => {
  const before = await getW1();
  ok(t, await kapi.kubectl(['-n', 'demo', 'label', 'widget', 'w1', 'env=prod']), 'widget.example.com/w1 labeled\n');
  const after = await getW1();
  t.deepEqual(after.metadata.labels, { tier: 'gold', env: 'prod' });
  t.not(after.metadata.resourceVersion, before.metadata.resourceVersion);
  t.is(after.metadata.generation, before.metadata.generation, 'metadata changes do not bump generation');

  const selected = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-l', 'env=prod', '-o', 'name']);
  t.is(selected.stdout, 'widget.example.com/w1\n', describe(selected));
});

test.serial('label without --overwrite refuses to change a label; with --overwrite changes it; key- removes it', async (t) => {
  const refused = await kapi.kubectl(['-n', 'demo', 'label', 'widget', 'w1', 'env=dev']);
  t.is(refused.code, 1, describe(refused));
  t.is(refused.stderr, "error: 'env' already has a value (prod), and --overwrite is false\n", describe(refused));

  ok(t, await kapi.kubectl(['-n', 'demo', 'label', 'widget', 'w1', 'env=dev', '--overwrite']), 'widget.example.com/w1 labeled\n');
  t.is((await getW1()).metadata.labels.env, 'dev');
  ok(t, await kapi.kubectl(['-n', 'demo', 'label', 'widget', 'w1', 'env-']), 'widget.example.com/w1 unlabeled\n');
  t.deepEqual((await getW1()).metadata.labels, { tier: 'gold' });
});

test.serial('annotate adds an annotation', async (t) => {
  ok(t, await kapi.kubectl(['-n', 'demo', 'annotate', 'widget', 'w1', 'a=b']), 'widget.example.com/w1 annotated\n');
  t.is((await getW1()).metadata.annotations.a, 'b');
});

test.serial('patch --type=merge changes spec.replicas', async (t) => {
  const before = await getW1();
  ok(t, await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w1', '--type=merge', '-p', '{"spec":{"replicas":5}}']), 'widget.example.com/w1 patched\n');
  const after = await getW1();
  t.deepEqual(after.spec, { color: 'blue', replicas: 5 });
  t.is(after.metadata.generation, before.metadata.generation + 1, 'spec changes bump generation');
});

test.serial('patch --type=merge with no change prints patched (no change)', async (t) => {
  ok(t, await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w1', '--type=merge', '-p', '{"spec":{"replicas":5}}']), 'widget.example.com/w1 patched (no change)\n');
});

test.serial('patch --type=json replaces and adds fields', async (t) => {
  const ops = [
    { op: 'replace', path: '/spec/color', value: 'red' },
    { op: 'add', path: '/metadata/labels/json', value: 'yes' },
  ];
  ok(t, await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w1', '--type=json', '-p', JSON.stringify(ops)]), 'widget.example.com/w1 patched\n');
  const after = await getW1();
  t.deepEqual(after.spec, { color: 'red', replicas: 5 });
  t.is(after.metadata.labels.json, 'yes');
});

test.serial('patch --type=json with a failing test op is rejected and changes nothing', async (t) => {
  const before = await getW1();
  const res = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w1', '--type=json', '-p', '[{"op":"test","path":"/spec/color","value":"purple"}]']);
  t.is(res.code, 1, describe(res));
  // kube-apiserver answers a JSON patch that does not apply with NewGenericServerResponse(422): reason Invalid,
  // message "the server rejected our request due to an error in our request", empty details (no causes).
  t.is(res.stderr, 'The request is invalid: the server rejected our request due to an error in our request\n', describe(res));
  t.is((await getW1()).metadata.resourceVersion, before.metadata.resourceVersion);
});

test.serial('patch --type=strategic works for custom resources (kapi serves it; kube-apiserver refuses it)', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w1', '--type=strategic', '-p', '{"spec":{"replicas":6}}']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 patched\n', describe(res));
  t.is((await getW1()).spec.replicas, 6);
});

// Schema checks run on a widget of their own so that a server accepting the bad write does not disturb w1.
const sv = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: sv\nspec:\n  color: blue\n  replicas: 1\n';

test.serial('patch violating the schema (replicas < 0) is Invalid', async (t) => {
  const create = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: sv });
  t.is(create.code, 0, describe(create));
  const res = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'sv', '--type=merge', '-p', '{"spec":{"replicas":-1}}']);
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    'The Widget "sv" is invalid: \n' +
      '* spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0\n' +
      '* .spec.replicas: Invalid value: -1: should be a non-negative integer\n',
    describe(res),
  );
  const replicas = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'sv', '-o', 'jsonpath={.spec.replicas}']);
  t.is(replicas.stdout, '1', describe(replicas));
});

test.serial('patch with a wrongly typed field is Invalid', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'sv', '--type=merge', '-p', '{"spec":{"replicas":"many"}}']);
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    'The Widget "sv" is invalid: \n' +
      '* spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"\n' +
      '* .spec.replicas: Invalid value: 0: .spec.replicas accessor error: many is of the type string, expected int64\n',
    describe(res),
  );
});

test.serial('unknown fields sent by patch are pruned', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'sv', '--type=merge', '-p', '{"spec":{"bogus":1}}']);
  t.is(res.code, 0, describe(res));
  const spec = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'sv', '-o', 'jsonpath={.spec}']);
  t.deepEqual(JSON.parse(spec.stdout), { color: 'blue', replicas: 1 }, describe(spec));
});

test.serial('replace -f of a file replaces the object', async (t) => {
  const current = await getW1();
  const doc = parse(readFileSync(example('widget.yaml'), 'utf8'));
  doc.spec = { color: 'yellow', replicas: 7 };
  doc.metadata.labels = { tier: 'bronze' };
  const file = tempFile('w1-replace.yaml', stringify(doc));
  ok(t, await kapi.kubectl(['-n', 'demo', 'replace', '-f', file]), 'widget.example.com/w1 replaced\n');
  const after = await getW1();
  t.deepEqual(after.spec, { color: 'yellow', replicas: 7 });
  t.deepEqual(after.metadata.labels, { tier: 'bronze' });
  t.is(after.metadata.annotations, undefined, 'replace drops annotations the file does not have');
  t.is(after.metadata.uid, current.metadata.uid);
  t.is(after.metadata.creationTimestamp, current.metadata.creationTimestamp);
});

test.serial('replace -f with a stale resourceVersion is a Conflict', async (t) => {
  const current = await getW1();
  const stale = { ...current, metadata: { ...current.metadata, resourceVersion: '1' }, spec: { color: 'stale', replicas: 1 } };
  delete stale.metadata.managedFields;
  const file = tempFile('w1-stale.json', JSON.stringify(stale));
  const res = await kapi.kubectl(['-n', 'demo', 'replace', '-f', file]);
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    'Error from server (Conflict): error when replacing "' + file + '": Operation cannot be fulfilled on widgets.example.com "w1": the object has been modified; please apply your changes to the latest version and try again\n',
    describe(res),
  );
  t.is((await getW1()).spec.color, 'yellow');
});

test.serial('replace -f with the current resourceVersion succeeds', async (t) => {
  const current = await getW1();
  current.spec.color = 'orange';
  const file = tempFile('w1-current.json', JSON.stringify(current));
  ok(t, await kapi.kubectl(['-n', 'demo', 'replace', '-f', file]), 'widget.example.com/w1 replaced\n');
  t.is((await getW1()).spec.color, 'orange');
});

test.serial('status is ignored on the main resource and set through --subresource=status', async (t) => {
  ok(t, await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w1', '--type=merge', '-p', '{"status":{"ready":true}}']), 'widget.example.com/w1 patched (no change)\n');
  t.is((await getW1()).status, undefined);
  ok(
    t,
    await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w1', '--subresource=status', '--type=merge', '-p', '{"status":{"ready":true}}']),
    'widget.example.com/w1 patched\n',
  );
  t.deepEqual((await getW1()).status, { ready: true });
});
