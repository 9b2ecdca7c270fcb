// User story 2 (and the namespace parts of 8 and 10): namespaces through kubectl.
import test from 'ava';
import { describe, row, table, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi();

const age = /^\d+[smhd]/;

/**
 * Later tests need demo even when `kubectl create namespace` failed (it is the one command here that sends protobuf);
 * then demo is applied from a manifest (JSON) so that they still test what they are about.
 */
async function ensureDemo(t: { log: (...values: unknown[]) => void }): Promise<void> {
  const get = await kapi.kubectl(['get', 'namespace', 'demo', '-o', 'name']);
  if (get.code === 0) return;
  t.log('namespace demo missing (create failed earlier): applying it from a manifest');
  const res = await kapi.kubectl(['apply', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n' });
  if (res.code !== 0) throw new Error(describe(res));
}

test.serial('create namespace prints "namespace/demo created"', async (t) => {
  const res = await kapi.kubectl(['create', 'namespace', 'demo']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'namespace/demo created\n', describe(res));
});

test.serial('get ns shows NAME STATUS AGE with demo and the built-in namespaces Active', async (t) => {
  await ensureDemo(t);
  const res = await kapi.kubectl(['get', 'ns']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'STATUS', 'AGE'], describe(res));
  for (const name of ['default', 'demo', 'kube-public', 'kube-system']) {
    const r = row(rows, name);
    t.truthy(r, `${name} listed\n${describe(res)}`);
    t.is(r?.[1], 'Active', `${name} is Active\n${describe(res)}`);
    t.regex(r?.[2] ?? '', age, `${name} has an age\n${describe(res)}`);
  }
  // kubectl sorts nothing: the server lists in key order.
  t.deepEqual(
    rows.slice(1).map((r) => r[0]),
    ['default', 'demo', 'kube-public', 'kube-system'],
    describe(res),
  );
});

test.serial('get namespace demo -o jsonpath shows phase Active', async (t) => {
  await ensureDemo(t);
  const res = await kapi.kubectl(['get', 'namespace', 'demo', '-o', 'jsonpath={.status.phase}']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'Active', describe(res));
});

test.serial('creating demo again is AlreadyExists', async (t) => {
  await ensureDemo(t);
  const res = await kapi.kubectl(['create', 'namespace', 'demo']);
  t.is(res.code, 1, describe(res));
  t.is(res.stdout, '', describe(res));
  t.is(res.stderr, 'Error from server (AlreadyExists): namespaces "demo" already exists\n', describe(res));
});

test.serial('delete namespace demo completes and the namespace is gone', async (t) => {
  await ensureDemo(t);
  const res = await kapi.kubectl(['delete', 'namespace', 'demo', '--timeout=30s']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'namespace "demo" deleted\n', describe(res));

  const get = await kapi.kubectl(['get', 'namespace', 'demo']);
  t.is(get.code, 1, describe(get));
  t.is(get.stderr, 'Error from server (NotFound): namespaces "demo" not found\n', describe(get));

  const list = await kapi.kubectl(['get', 'ns', '--no-headers']);
  t.is(list.code, 0, describe(list));
  t.is(row(table(list.stdout), 'demo'), undefined, describe(list));
});

test.serial('kubectl apply of a changed Namespace manifest patches it (strategic merge patch)', async (t) => {
  const first = await kapi.kubectl(['apply', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: applied\n' });
  t.is(first.stdout, 'namespace/applied created\n', describe(first));
  const second = await kapi.kubectl(['apply', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: applied\n  labels: {team: a}\n' });
  t.is(second.stdout, 'namespace/applied configured\n', describe(second));
  const label = await kapi.kubectl(['get', 'namespace', 'applied', '-o', 'jsonpath={.metadata.labels.team}']);
  t.is(label.stdout, 'a');
});

test.serial('kubectl create -f of a Namespace with a typo: refused by default (strict), created with kube\'s warning under --validate=warn', async (t) => {
  const manifest = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: typo\nbogus: 1\n';
  const strict = await kapi.kubectl(['create', '-f', '-'], { stdin: manifest });
  t.is(strict.code, 1, describe(strict));
  t.is(strict.stderr, 'Error from server (BadRequest): error when creating "STDIN": Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: unknown field "bogus"\n', describe(strict));
  const warn = await kapi.kubectl(['create', '-f', '-', '--validate=warn'], { stdin: manifest });
  t.is(warn.code, 0, describe(warn));
  t.is(warn.stdout, 'namespace/typo created\n', describe(warn));
  t.is(warn.stderr, 'Warning: unknown field "bogus"\n', describe(warn));
});
