// User stories 3 and 8: a CRD applied, established, listed, and deleted together with its custom resources.
import test from 'ava';
import { describe, eventually, example, removeDir, row, table, tempDir, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi();

const crdName = 'customresourcedefinition.apiextensions.k8s.io';

test.serial('apply -f widgets-crd.yaml prints created', async (t) => {
  const res = await kapi.kubectl(['apply', '-f', example('widgets-crd.yaml')]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, `${crdName}/widgets.example.com created\n`, describe(res));
});

test.serial('wait --for condition=established succeeds', async (t) => {
  const res = await kapi.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, `${crdName}/widgets.example.com condition met\n`, describe(res));
});

test.serial('the CRD status has NamesAccepted and Established conditions and accepted names', async (t) => {
  const res = await kapi.kubectl(['get', 'crd', 'widgets.example.com', '-o', 'json']);
  t.is(res.code, 0, describe(res));
  const crd = JSON.parse(res.stdout);
  const conditions = Object.fromEntries(
    (crd.status?.conditions ?? []).map((c: { type: string; status: string }) => [c.type, c.status]),
  );
  t.is(conditions.NamesAccepted, 'True', res.stdout);
  t.is(conditions.Established, 'True', res.stdout);
  t.like(crd.status?.acceptedNames, { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' });
  t.deepEqual(crd.status?.acceptedNames?.shortNames, ['wd', 'wdg']);
  t.deepEqual(crd.status?.storedVersions, ['v1']);
});

test.serial('get crd shows NAME and CREATED AT', async (t) => {
  const res = await kapi.kubectl(['get', 'crd']);
  t.is(res.code, 0, describe(res));
  const lines = res.stdout.trimEnd().split('\n');
  t.deepEqual(lines[0]?.trim().split(/\s{2,}/), ['NAME', 'CREATED AT'], describe(res));
  t.is(lines.length, 2, describe(res));
  const [name, createdAt] = lines[1]!.trim().split(/\s+/);
  t.is(name, 'widgets.example.com', describe(res));
  t.regex(createdAt ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, describe(res));
});

test.serial('re-applying the unchanged CRD prints unchanged', async (t) => {
  const res = await kapi.kubectl(['apply', '-f', example('widgets-crd.yaml')]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, `${crdName}/widgets.example.com unchanged\n`, describe(res));
});

test.serial('delete crd removes the CRD, its widgets and the widgets resource type', async (t) => {
  // The namespace from a manifest (JSON on the wire): `kubectl create namespace` is covered in namespaces.test.ts.
  const ns = await kapi.kubectl(['apply', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n' });
  t.is(ns.code, 0, describe(ns));
  const w1 = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(w1.code, 0, describe(w1));
  // Fills kubectl's discovery cache with the widgets resource.
  const before = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '--no-headers']);
  t.is(before.code, 0, describe(before));
  t.is(row(table(before.stdout), 'w1')?.[0], 'w1', describe(before));

  const res = await kapi.kubectl(['delete', 'crd', 'widgets.example.com', '--timeout=30s']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, `${crdName} "widgets.example.com" deleted\n`, describe(res));
  t.true(res.ms < 20_000, `kubectl delete took ${res.ms}ms`);

  const crd = await kapi.kubectl(['get', 'crd', 'widgets.example.com']);
  t.is(crd.code, 1, describe(crd));
  t.is(crd.stderr, `Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "widgets.example.com" not found\n`, describe(crd));

  // With a fresh discovery cache kubectl finds no such resource type (the message users see from a real cluster).
  const cacheDir = tempDir('kapi-e2e-cache-');
  try {
    const get = await kapi.kubectl(['get', 'widgets', `--cache-dir=${cacheDir}`]);
    t.is(get.code, 1, describe(get));
    t.is(get.stderr, 'error: the server doesn\'t have a resource type "widgets"\n', describe(get));
  } finally {
    removeDir(cacheDir);
  }
  // api-resources refreshes the shared cache; afterwards plain `kubectl get widgets` says the same.
  const resources = await kapi.kubectl(['api-resources']);
  t.is(resources.code, 0, describe(resources));
  t.is(row(table(resources.stdout), 'widgets'), undefined, describe(resources));
  const get = await kapi.kubectl(['get', 'widgets']);
  t.is(get.code, 1, describe(get));
  t.is(get.stderr, 'error: the server doesn\'t have a resource type "widgets"\n', describe(get));
});

test.serial('a CRD re-created after deletion starts with no widgets', async (t) => {
  const apply = await kapi.kubectl(['apply', '-f', example('widgets-crd.yaml')]);
  t.is(apply.code, 0, describe(apply));
  t.is(apply.stdout, `${crdName}/widgets.example.com created\n`, describe(apply));
  const wait = await kapi.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com']);
  t.is(wait.code, 0, describe(wait));
  const res = await eventually(
    () => kapi.kubectl(['-n', 'demo', 'get', 'widgets']),
    (r) => r.code === 0,
    5_000,
  );
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, '', describe(res));
  t.is(res.stderr, 'No resources found in demo namespace.\n', describe(res));
});

test.serial('delete namespace demo deletes its widgets and completes', async (t) => {
  const w1 = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(w1.code, 0, describe(w1));

  const res = await kapi.kubectl(['delete', 'namespace', 'demo', '--timeout=30s']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'namespace "demo" deleted\n', describe(res));

  const ns = await kapi.kubectl(['get', 'namespace', 'demo']);
  t.is(ns.code, 1, describe(ns));
  t.is(ns.stderr, 'Error from server (NotFound): namespaces "demo" not found\n', describe(ns));
  const widgets = await kapi.kubectl(['get', 'widgets', '-A']);
  t.is(widgets.code, 0, describe(widgets));
  t.is(widgets.stderr, 'No resources found\n', describe(widgets));
});

test.serial('a namespace stays Terminating while a widget in it has a finalizer', async (t) => {
  const setup = await kapi.kubectl(['apply', '-f', '-'], {
    stdin: [
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: held\n',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: h1\n  namespace: held\n  finalizers: [example.com/hold]\nspec:\n  color: red\n',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: h2\n  namespace: held\nspec:\n  color: blue\n',
    ].join('---\n'),
  });
  t.is(setup.code, 0, describe(setup));

  const del = await kapi.kubectl(['delete', 'namespace', 'held', '--wait=false']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'namespace "held" deleted\n', describe(del));

  const phase = await eventually(
    () => kapi.kubectl(['get', 'namespace', 'held', '-o', 'jsonpath={.status.phase}']),
    (r) => r.stdout === 'Terminating',
  );
  t.is(phase.stdout, 'Terminating', describe(phase));
  // h2 is deleted by the namespace controller; h1 is marked for deletion and waits for its finalizer.
  const left = await eventually(
    () => kapi.kubectl(['-n', 'held', 'get', 'widgets', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.metadata.deletionTimestamp}{"\\n"}{end}']),
    (r) => r.stdout.trim().split('\n').length === 1 && /^h1 \S+$/.test(r.stdout.trim()),
    15_000,
  );
  t.regex(left.stdout.trim(), /^h1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, describe(left));

  const create = await kapi.kubectl(['-n', 'held', 'create', '-f', '-'], {
    stdin: 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: h3\nspec:\n  color: blue\n',
  });
  t.is(create.code, 1, describe(create));
  t.is(
    create.stderr,
    'Error from server (Forbidden): error when creating "STDIN": widgets.example.com "h3" is forbidden: unable to create new content in namespace held because it is being terminated\n',
    describe(create),
  );

  const patch = await kapi.kubectl(['-n', 'held', 'patch', 'widget', 'h1', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  t.is(patch.code, 0, describe(patch));
  const wait = await kapi.kubectl(['wait', '--for=delete', 'namespace/held', '--timeout=30s']);
  t.is(wait.code, 0, describe(wait));
  // kubectl prints nothing when the namespace was already gone before it started watching.
  t.true(['namespace/held condition met\n', ''].includes(wait.stdout), describe(wait));
  const ns = await kapi.kubectl(['get', 'namespace', 'held']);
  t.is(ns.stderr, 'Error from server (NotFound): namespaces "held" not found\n', describe(ns));
});
