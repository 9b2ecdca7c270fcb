// User story 1: `kubectl api-resources` shows the built-in kinds, and a CRD's resource once it is established.
import test from 'ava';
import { describe, eventually, repoPath, row, table, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi();

test.serial('api-resources lists namespaces and customresourcedefinitions', async (t) => {
  const res = await kapi.kubectl(['api-resources']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'], describe(res));
  t.deepEqual(row(rows, 'namespaces'), ['namespaces', 'ns', 'v1', 'false', 'Namespace'], describe(res));
  t.deepEqual(
    row(rows, 'customresourcedefinitions'),
    ['customresourcedefinitions', 'crd,crds', 'apiextensions.k8s.io/v1', 'false', 'CustomResourceDefinition'],
    describe(res),
  );
  t.is(row(rows, 'widgets'), undefined, 'widgets are not served before the CRD exists');
});

test.serial('api-resources lists widgets once the CRD is applied and established', async (t) => {
  const apply = await kapi.kubectl(['apply', '-f', repoPath('examples/crd-only/widgets-crd.yaml')]);
  t.is(apply.code, 0, describe(apply));
  const wait = await kapi.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com']);
  t.is(wait.code, 0, describe(wait));

  // api-resources invalidates kubectl's discovery cache itself; a short retry tolerates discovery lagging the condition.
  const res = await eventually(
    () => kapi.kubectl(['api-resources']),
    (r) => r.code === 0 && row(table(r.stdout), 'widgets') !== undefined,
    5_000,
  );
  t.is(res.code, 0, describe(res));
  t.deepEqual(row(table(res.stdout), 'widgets'), ['widgets', 'wd,wdg', 'example.com/v1', 'true', 'Widget'], describe(res));

  const group = await kapi.kubectl(['api-resources', '--api-group=example.com', '--no-headers']);
  t.is(group.code, 0, describe(group));
  t.deepEqual(table(group.stdout), [['widgets', 'wd,wdg', 'example.com/v1', 'true', 'Widget']], describe(group));

  const versions = await kapi.kubectl(['api-versions']);
  t.is(versions.code, 0, describe(versions));
  const lines = versions.stdout.trim().split('\n');
  for (const gv of ['v1', 'apiextensions.k8s.io/v1', 'example.com/v1']) t.true(lines.includes(gv), `${gv} in\n${versions.stdout}`);
});
