// User story 10: errors as kubectl shows them.
import test from 'ava';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, removeDir, tempDir, tempFile, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

test.serial('get of a missing widget is NotFound', async (t) => {
  const res = await kapi.kubectl(['get', 'widget', 'nope']);
  t.is(res.code, 1, describe(res));
  t.is(res.stdout, '', describe(res));
  t.is(res.stderr, 'Error from server (NotFound): widgets.example.com "nope" not found\n', describe(res));
});

test.serial('a manifest over the 3 MiB body limit is RequestEntityTooLarge (over HTTP/2, as kubectl speaks it)', async (t) => {
  const manifest = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge' }, data: { a: 'a'.repeat(3_200_000) } });
  const res = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: manifest });
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, 'Error from server (RequestEntityTooLarge): error when creating "STDIN": Request entity too large: limit is 3145728\n', describe(res));
});

test.serial('get of a missing namespace is NotFound', async (t) => {
  const res = await kapi.kubectl(['get', 'namespace', 'nope']);
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, 'Error from server (NotFound): namespaces "nope" not found\n', describe(res));
});

test.serial('creating an existing namespace is AlreadyExists', async (t) => {
  const res = await kapi.kubectl(['create', 'namespace', 'demo']);
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, 'Error from server (AlreadyExists): namespaces "demo" already exists\n', describe(res));
});

test.serial('creating an existing widget is AlreadyExists', async (t) => {
  const yaml = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: dup\nspec:\n  color: blue\n';
  const first = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: yaml });
  t.is(first.code, 0, describe(first));
  t.is(first.stdout, 'widget.example.com/dup created\n', describe(first));
  const second = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: yaml });
  t.is(second.code, 1, describe(second));
  t.is(second.stderr, 'Error from server (AlreadyExists): error when creating "STDIN": widgets.example.com "dup" already exists\n', describe(second));
});

test.serial('creating a widget in a missing namespace is NotFound', async (t) => {
  const yaml = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  color: blue\n';
  const res = await kapi.kubectl(['-n', 'missing', 'create', '-f', '-'], { stdin: yaml });
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, 'Error from server (NotFound): error when creating "STDIN": namespaces "missing" not found\n', describe(res));
});

test.serial('an invalid widget is Invalid with the field and reason', async (t) => {
  const file = tempFile('bad.yaml', 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: bad\nspec:\n  color: blue\n  replicas: -2\n');
  const res = await kapi.kubectl(['-n', 'demo', 'create', '-f', file]);
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    'The Widget "bad" is invalid: \n' +
      '* spec.replicas: Invalid value: -2: spec.replicas in body should be greater than or equal to 0\n' +
      '* .spec.replicas: Invalid value: -2: should be a non-negative integer\n',
    describe(res),
  );
});

test.serial('unknown fields are refused under kubectl\'s default --validate=strict', async (t) => {
  const file = tempFile('unknown.yaml', 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: unknown\nspec:\n  color: blue\n  bogus: 1\n');
  const res = await kapi.kubectl(['-n', 'demo', 'create', '-f', file]);
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, `Error from server (BadRequest): error when creating "${file}": Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"\n`, describe(res));
  const lax = await kapi.kubectl(['-n', 'demo', 'create', '-f', file, '--validate=false']);
  t.is(lax.code, 0, describe(lax));
  const spec = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'unknown', '-o', 'jsonpath={.spec}']);
  t.deepEqual(JSON.parse(spec.stdout || 'null'), { color: 'blue' }, 'pruned when not validated strictly');
});

test.serial('kubectl --validate=warn prints an unknown field named outside Latin-1 as kube sends it', async (t) => {
  const file = tempFile('colour.yaml', 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: colour\nspec:\n  color: blue\n  colour€: "red"\n');
  const res = await kapi.kubectl(['-n', 'demo', 'create', '-f', file, '--validate=warn']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/colour created\n', describe(res));
  t.is(res.stderr, 'Warning: unknown field "spec.colour€"\n', describe(res));
});

test.serial('an invalid name is Invalid', async (t) => {
  const res = await kapi.kubectl(['create', 'namespace', 'Not_Valid']);
  t.is(res.code, 1, describe(res));
  t.regex(res.stderr, /^The Namespace "Not_Valid" is invalid: metadata\.name: Invalid value: "Not_Valid": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'/, describe(res));
});

test.serial('an unknown resource type is reported by kubectl', async (t) => {
  const res = await kapi.kubectl(['get', 'gadgets']);
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, 'error: the server doesn\'t have a resource type "gadgets"\n', describe(res));
});

test.serial('a kubeconfig with a wrong token is Unauthorized', async (t) => {
  const dir = tempDir('kapi-e2e-kubeconfig-');
  try {
    const kubeconfig = join(dir, 'kubeconfig');
    copyFileSync(kapi.kubeconfig, kubeconfig);
    const set = await kapi.kubectl(['config', 'set-credentials', 'kapi-admin', '--token=wrong-token'], { kubeconfig });
    t.is(set.code, 0, describe(set));
    t.is(set.stdout, 'User "kapi-admin" set.\n', describe(set));

    // With an empty discovery cache kubectl fails in discovery first; client-go's discovery client reports a 401 as
    // "the server has asked for the client to provide credentials" (what kubectl prints against a real cluster too).
    const cold = await kapi.kubectl(['get', 'ns'], { kubeconfig, env: { HOME: join(dir, 'cold') } });
    t.is(cold.code, 1, describe(cold));
    t.is(cold.stdout, '', describe(cold));
    t.regex(cold.stderr, /^error: You must be logged in to the server \(.+\)\n$/m, describe(cold));

    // With discovery cached (the token was rotated after a successful call) the 401 Status of the list is shown.
    const warmHome = join(dir, 'warm');
    const ok = await kapi.kubectl(['get', 'ns'], { env: { HOME: warmHome } });
    t.is(ok.code, 0, describe(ok));
    const warm = await kapi.kubectl(['get', 'ns'], { kubeconfig, env: { HOME: warmHome } });
    t.is(warm.code, 1, describe(warm));
    t.is(warm.stdout, '', describe(warm));
    t.is(warm.stderr, 'error: You must be logged in to the server (Unauthorized)\n', describe(warm));

    const raw = await kapi.kubectl(['get', '--raw', '/api/v1/namespaces'], { kubeconfig, env: { HOME: warmHome } });
    t.is(raw.code, 1, describe(raw));
    t.is(raw.stderr, 'error: You must be logged in to the server (Unauthorized)\n', describe(raw));
  } finally {
    removeDir(dir);
  }
});
