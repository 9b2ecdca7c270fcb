// `kapi serve --runtime-config` seen through kubectl: a disabled group-version or resource is gone from
// `kubectl api-resources`, kubectl's reads and the local APIServices (also one left from an earlier start); what
// kube-apiserver refuses, kapi refuses with its message and exit code 1.
import test from 'ava';
import { runKapiCommand } from '../helpers/kapi-command.js';
import { describe, example, removeDir, startKapi, table, tempDir } from '../helpers/kapi-process.js';

/** The `NAME APIVERSION` pairs `kubectl api-resources` lists. */
function apiResources(stdout: string): string[] {
  return table(stdout)
    .slice(1)
    .map((cells) => `${cells[0]} ${cells.find((c) => /^(v1|[a-z0-9.-]+\/v\w+)$/.test(c))}`);
}

test('rbac.authorization.k8s.io/v1=false and v1/configmaps=false hide the group and the resource, also the APIService an earlier start made', async (t) => {
  const dataDir = tempDir('kapi-e2e-runtime-config-');
  t.teardown(() => removeDir(dataDir));
  const first = await startKapi({ dataDir });
  const before = await first.kubectl(['get', 'apiservice', 'v1.rbac.authorization.k8s.io', '-o', 'name']);
  await first.stop();
  t.is(before.stdout.trim(), 'apiservice.apiregistration.k8s.io/v1.rbac.authorization.k8s.io', describe(before));

  // RBAC cannot decide requests with its objects not served
  const kapi = await startKapi({ dataDir, args: ['--authorization-mode=AlwaysAllow', '--runtime-config=rbac.authorization.k8s.io/v1=false,v1/configmaps=false'] });
  t.teardown(() => kapi.stop());
  const listed = await kapi.kubectl(['api-resources']);
  t.is(listed.code, 0, describe(listed));
  const resources = apiResources(listed.stdout);
  t.false(resources.some((r) => r.includes('rbac.authorization.k8s.io')), listed.stdout);
  t.false(resources.includes('configmaps v1'), listed.stdout);
  t.true(resources.includes('secrets v1'), listed.stdout);
  t.true(resources.includes('leases coordination.k8s.io/v1'), listed.stdout);

  for (const resource of ['clusterroles', 'configmaps']) {
    const get = await kapi.kubectl(['get', resource]);
    t.is(get.code, 1, describe(get));
    t.is(get.stderr.trim(), `error: the server doesn't have a resource type "${resource}"`);
  }
  for (const path of ['/apis/rbac.authorization.k8s.io/v1/clusterroles', '/api/v1/configmaps']) {
    const raw = await kapi.kubectl(['get', '--raw', path]);
    t.is(raw.code, 1, describe(raw));
    t.is(raw.stderr.trim(), 'Error from server (NotFound): the server could not find the requested resource');
  }
  const secrets = await kapi.kubectl(['get', 'secrets', '-n', 'default']);
  t.is(secrets.code, 0, describe(secrets));

  const apiServices = await kapi.kubectl(['get', 'apiservices', '-o', 'name']);
  t.is(apiServices.code, 0, describe(apiServices));
  t.false(apiServices.stdout.includes('v1.rbac.authorization.k8s.io'), apiServices.stdout);
  t.true(apiServices.stdout.includes('v1.coordination.k8s.io'), apiServices.stdout);
});

test('api/all=false keeps only what is turned back on; CRDs are served regardless', async (t) => {
  const kapi = await startKapi({
    args: ['--authorization-mode=AlwaysAllow', '--runtime-config=api/all=false,apiextensions.k8s.io/v1=true,apiregistration.k8s.io/v1=true,/v1/namespaces=true'],
  });
  t.teardown(() => kapi.stop());
  const applied = await kapi.kubectl(['apply', '-f', example('widgets-crd.yaml')]);
  t.is(applied.code, 0, describe(applied));
  const established = await kapi.kubectl(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=30s']);
  t.is(established.code, 0, describe(established));
  const listed = await kapi.kubectl(['api-resources']);
  t.is(listed.code, 0, describe(listed));
  t.deepEqual(apiResources(listed.stdout).sort(), [
    'apiservices apiregistration.k8s.io/v1',
    'customresourcedefinitions apiextensions.k8s.io/v1',
    'namespaces v1',
    'widgets example.com/v1',
  ]);
});

/** `kapi serve --runtime-config=VALUE` on a fresh data directory, expected to stop at once. */
async function refusedStart(value: string, ...args: string[]) {
  const dataDir = tempDir('kapi-e2e-runtime-config-refused-');
  try {
    return await runKapiCommand(['serve', '--port', '0', '--data-dir', dataDir, '--storage', 'memory', `--runtime-config=${value}`, ...args]);
  } finally {
    removeDir(dataDir);
  }
}

test('what kube-apiserver refuses to start with is refused with its message and exit code 1', async (t) => {
  // (every message is in the unit tests of core/registry/resource-enablement; here: that kapi serve stops with them)
  const refusals: [string, string][] = [
    ['api/all=maybe', 'invalid value api/all=maybe'],
    ['apps/v1=false,coordination.k8s.io/v1=false', 'unknown api groups apps'],
    ['coordination.k8s.io/v1=no', 'invalid value of coordination.k8s.io/v1: no, err: strconv.ParseBool: parsing "no": invalid syntax'],
  ];
  for (const [value, message] of refusals) {
    const res = await refusedStart(value);
    t.is(res.code, 1, `${value}: ${res.stderr}`);
    t.is(res.stderr, `kapi: ${message}\n`, value);
  }
  // What kapi's own parts need: the aggregator its group (as kube's), the namespaces module its namespaces
  const aggregator = await refusedStart('api/all=false,/v1=true', '--authorization-mode=AlwaysAllow');
  t.is(aggregator.code, 1, aggregator.stderr);
  t.is(aggregator.stderr, 'kapi: API group/version apiregistration.k8s.io/v1 must be enabled\n');
  const namespaces = await refusedStart('api/all=false,apiextensions.k8s.io/v1=true', '--authorization-mode=AlwaysAllow');
  t.is(namespaces.code, 1, namespaces.stderr);
  t.is(namespaces.stderr, 'kapi: the namespaces module needs namespaces (v1) served\n');
});
