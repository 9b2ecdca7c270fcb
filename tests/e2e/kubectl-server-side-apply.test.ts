// kubectl apply --server-side, kubectl diff and kubectl patch against kapi, as against kube-apiserver 1.32.
import test from 'ava';
import { parse } from 'yaml';
import { describe, tempFile, useKapi } from '../helpers/kapi-process.js';
import { gizmosCrd, type ManagedFieldsEntry } from '../helpers/ssa.js';

const kapi = useKapi({ widgets: true });

function widgetManifest(name: string, color: string, replicas = 3): string {
  return `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\n  namespace: demo\nspec:\n  color: ${color}\n  replicas: ${replicas}\n`;
}

function widgetFile(name: string, color: string, replicas = 3): string {
  return tempFile(`${name}-${color}.yaml`, widgetManifest(name, color, replicas));
}

async function getJson(args: string[]): Promise<any> {
  const res = await kapi.kubectl(['get', ...args, '-o', 'json', '--show-managed-fields']);
  if (res.code !== 0) throw new Error(`kubectl get ${args.join(' ')}: ${describe(res)}`);
  return JSON.parse(res.stdout);
}

function entry(obj: any, manager: string): ManagedFieldsEntry | undefined {
  return (obj.metadata.managedFields ?? []).find((e: ManagedFieldsEntry) => e.manager === manager);
}

// ---------------------------------------------------------------------------------------------------------------
// apply --server-side

test.serial('apply --server-side creates the widget, and applying it again changes nothing', async (t) => {
  const file = widgetFile('ssa1', 'red');
  const first = await kapi.kubectl(['apply', '--server-side', '-f', file]);
  t.is(first.code, 0, describe(first));
  t.is(first.stdout, 'widget.example.com/ssa1 serverside-applied\n', describe(first));
  const created = await getJson(['-n', 'demo', 'widget', 'ssa1']);
  t.deepEqual(created.spec, { color: 'red', replicas: 3 });
  // kubectl's default field manager for server-side apply is "kubectl".
  t.is(entry(created, 'kubectl')?.operation, 'Apply', JSON.stringify(created.metadata.managedFields));

  const again = await kapi.kubectl(['apply', '--server-side', '-f', file]);
  t.is(again.code, 0, describe(again));
  t.is(again.stdout, 'widget.example.com/ssa1 serverside-applied\n', describe(again));
  const after = await getJson(['-n', 'demo', 'widget', 'ssa1']);
  t.is(after.metadata.resourceVersion, created.metadata.resourceVersion, 'a no-op apply writes nothing');
});

test.serial('another field manager changing an owned field gets the conflict', async (t) => {
  const res = await kapi.kubectl(['apply', '--server-side', '--field-manager=other', '-f', widgetFile('ssa1', 'green')]);
  t.not(res.code, 0, describe(res));
  t.true(res.stderr.includes('Apply failed with 1 conflict: conflict with "kubectl": .spec.color'), describe(res));
  t.true(res.stderr.includes('--force-conflicts'), `kubectl explains how to resolve it: ${describe(res)}`);
  const obj = await getJson(['-n', 'demo', 'widget', 'ssa1']);
  t.is(obj.spec.color, 'red');
});

test.serial('--force-conflicts takes the field over', async (t) => {
  const res = await kapi.kubectl(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', widgetFile('ssa1', 'green')]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/ssa1 serverside-applied\n', describe(res));
});

test.serial('get -o yaml --show-managed-fields shows both managers with their fields', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'ssa1', '-o', 'yaml', '--show-managed-fields']);
  t.is(res.code, 0, describe(res));
  const obj = parse(res.stdout);
  t.is(obj.spec.color, 'green');
  const kubectl = entry(obj, 'kubectl');
  const other = entry(obj, 'other');
  t.is(kubectl?.operation, 'Apply', res.stdout);
  t.is(other?.operation, 'Apply', res.stdout);
  t.deepEqual(kubectl?.fieldsV1, { 'f:spec': { 'f:replicas': {} } }, 'kubectl lost color, keeps replicas');
  t.deepEqual(other?.fieldsV1, { 'f:spec': { 'f:color': {}, 'f:replicas': {} } }, 'other owns color, shares replicas');

  const plain = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'ssa1', '-o', 'yaml']);
  t.is(parse(plain.stdout).metadata.managedFields, undefined, 'kubectl hides managedFields by default');
});

// ---------------------------------------------------------------------------------------------------------------
// diff

test.serial('kubectl diff shows a change (exit 1) and nothing for an unchanged manifest (exit 0)', async (t) => {
  const create = await kapi.kubectl(['apply', '--server-side', '-f', widgetFile('ssa-diff', 'red')]);
  t.is(create.code, 0, describe(create));
  const before = await getJson(['-n', 'demo', 'widget', 'ssa-diff']);

  const changed = await kapi.kubectl(['diff', '-f', widgetFile('ssa-diff', 'green')]);
  t.is(changed.code, 1, describe(changed));
  t.regex(changed.stdout, /^-\s+color: red$/m, describe(changed));
  t.regex(changed.stdout, /^\+\s+color: green$/m, describe(changed));

  const same = await kapi.kubectl(['diff', '-f', widgetFile('ssa-diff', 'red')]);
  t.is(same.code, 0, describe(same));
  t.is(same.stdout, '', describe(same));

  const after = await getJson(['-n', 'demo', 'widget', 'ssa-diff']);
  t.is(after.metadata.resourceVersion, before.metadata.resourceVersion, 'diff is a dry run');
});

test.serial('kubectl diff --server-side shows the change of a dry-run apply', async (t) => {
  const create = await kapi.kubectl(['apply', '--server-side', '-f', widgetFile('ssa-sdiff', 'red')]);
  t.is(create.code, 0, describe(create));
  const before = await getJson(['-n', 'demo', 'widget', 'ssa-sdiff']);
  const res = await kapi.kubectl(['diff', '--server-side', '-f', widgetFile('ssa-sdiff', 'green', 5)]);
  t.is(res.code, 1, describe(res));
  t.regex(res.stdout, /^-\s+color: red$/m, describe(res));
  t.regex(res.stdout, /^\+\s+color: green$/m, describe(res));
  t.regex(res.stdout, /^\+\s+replicas: 5$/m, describe(res));
  const same = await kapi.kubectl(['diff', '--server-side', '-f', widgetFile('ssa-sdiff', 'red')]);
  t.is(same.code, 0, describe(same));
  const after = await getJson(['-n', 'demo', 'widget', 'ssa-sdiff']);
  t.is(after.metadata.resourceVersion, before.metadata.resourceVersion, 'diff is a dry run');
  t.deepEqual(after.spec, { color: 'red', replicas: 3 });
});

// ---------------------------------------------------------------------------------------------------------------
// Client-side apply, then server-side apply

test.serial('a widget managed by client-side apply moves to server-side apply without conflicts', async (t) => {
  const csa = await kapi.kubectl(['apply', '-f', widgetFile('ssa-mig', 'red')]);
  t.is(csa.code, 0, describe(csa));
  t.is(csa.stdout, 'widget.example.com/ssa-mig created\n', describe(csa));
  const created = await getJson(['-n', 'demo', 'widget', 'ssa-mig']);
  t.is(entry(created, 'kubectl-client-side-apply')?.operation, 'Update', JSON.stringify(created.metadata.managedFields));

  // The server lets the default manager ("kubectl") take over fields recorded in last-applied-configuration;
  // kubectl then moves the client-side-apply entry's fields into its Apply entry.
  const ssa = await kapi.kubectl(['apply', '--server-side', '-f', widgetFile('ssa-mig', 'blue')]);
  t.is(ssa.code, 0, describe(ssa));
  t.is(ssa.stdout, 'widget.example.com/ssa-mig serverside-applied\n', describe(ssa));
  t.false(ssa.stderr.includes('conflict'), describe(ssa));
  const obj = await getJson(['-n', 'demo', 'widget', 'ssa-mig']);
  t.deepEqual(obj.spec, { color: 'blue', replicas: 3 });
  const managers = (obj.metadata.managedFields as ManagedFieldsEntry[]).map((e) => `${e.manager}:${e.operation}`);
  t.true(managers.includes('kubectl:Apply'), managers.join(', '));
  t.false(managers.includes('kubectl-client-side-apply:Update'), managers.join(', '));
  t.true((entry(obj, 'kubectl')?.fieldsV1?.['f:spec'] ?? {})['f:color'] !== undefined, 'kubectl owns color');
});

// ---------------------------------------------------------------------------------------------------------------
// patch, on a CRD with a list-map

function gizmoManifest(name: string, ports: { name: string; port: number }[]): string {
  const items = ports.map((p) => `  - name: ${p.name}\n    port: ${p.port}\n`).join('');
  return `apiVersion: ssa.example.com/v1\nkind: Gizmo\nmetadata:\n  name: ${name}\n  namespace: demo\nspec:\n  ports:\n${items}`;
}

test.serial('set up gizmos (a CRD with a list-map) and create g1', async (t) => {
  const crd = await kapi.kubectl(['apply', '-f', '-'], { stdin: JSON.stringify(gizmosCrd()) });
  t.is(crd.code, 0, describe(crd));
  const wait = await kapi.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/gizmos.ssa.example.com']);
  t.is(wait.code, 0, describe(wait));
  const res = await kapi.kubectl(['create', '-f', '-'], { stdin: gizmoManifest('g1', [{ name: 'a', port: 1 }]) });
  t.is(res.code, 0, describe(res));
});

test.serial('two field managers applying different list-map items server-side keep both', async (t) => {
  const first = await kapi.kubectl(['apply', '--server-side', '-f', '-'], { stdin: gizmoManifest('g2', [{ name: 'a', port: 1 }]) });
  t.is(first.code, 0, describe(first));
  t.is(first.stdout, 'gizmo.ssa.example.com/g2 serverside-applied\n', describe(first));
  const second = await kapi.kubectl(['apply', '--server-side', '--field-manager=second', '-f', '-'], { stdin: gizmoManifest('g2', [{ name: 'z', port: 26 }]) });
  t.is(second.code, 0, describe(second));
  const obj = await getJson(['-n', 'demo', 'gizmo', 'g2']);
  t.deepEqual(obj.spec.ports.map((p: { name: string }) => p.name).sort(), ['a', 'z']);
  t.deepEqual(Object.keys(entry(obj, 'second')?.fieldsV1?.['f:spec']?.['f:ports'] ?? {}), ['k:{"name":"z"}']);
});

test.serial('patch --type=strategic of a custom resource merges the list-map by key (kube refuses it; kapi serves it)', async (t) => {
  const before = await getJson(['-n', 'demo', 'gizmo', 'g1']);
  const res = await kapi.kubectl(['-n', 'demo', 'patch', 'gizmo', 'g1', '--type=strategic', '-p', '{"spec":{"ports":[{"name":"b","port":2}]}}']);
  t.is(res.code, 0, describe(res));
  const after = await getJson(['-n', 'demo', 'gizmo', 'g1']);
  const names = after.spec.ports.map((p: { name: string }) => p.name);
  t.deepEqual(names, ['b', ...before.spec.ports.map((p: { name: string }) => p.name).filter((n: string) => n !== 'b')]);
});

test.serial('patch --type=merge replaces the list; --type=json appends to it', async (t) => {
  const merge = await kapi.kubectl(['-n', 'demo', 'patch', 'gizmo', 'g1', '--type=merge', '-p', '{"spec":{"ports":[{"name":"b","port":2}]}}']);
  t.is(merge.code, 0, describe(merge));
  t.is(merge.stdout, 'gizmo.ssa.example.com/g1 patched\n', describe(merge));
  t.deepEqual((await getJson(['-n', 'demo', 'gizmo', 'g1'])).spec.ports, [{ name: 'b', port: 2 }]);

  const json = await kapi.kubectl(['-n', 'demo', 'patch', 'gizmo', 'g1', '--type=json', '-p', '[{"op":"add","path":"/spec/ports/-","value":{"name":"c","port":3}}]']);
  t.is(json.code, 0, describe(json));
  const obj = await getJson(['-n', 'demo', 'gizmo', 'g1']);
  t.deepEqual(obj.spec.ports, [{ name: 'b', port: 2 }, { name: 'c', port: 3 }]);
  t.is(entry(obj, 'kubectl-patch')?.operation, 'Update', JSON.stringify(obj.metadata.managedFields));
});

test.serial('patch --type=strategic of a namespace merges metadata.finalizers', async (t) => {
  const create = await kapi.kubectl(['apply', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: smp-fin\n  finalizers: [example.com/a]\n' });
  t.is(create.code, 0, describe(create));
  const res = await kapi.kubectl(['patch', 'namespace', 'smp-fin', '--type=strategic', '-p', '{"metadata":{"finalizers":["example.com/b"]}}']);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'namespace/smp-fin patched\n', describe(res));
  const ns = await getJson(['namespace', 'smp-fin']);
  // kube's strategic merge puts new items first when the patch has no $setElementOrder.
  t.deepEqual(ns.metadata.finalizers, ['example.com/b', 'example.com/a']);
  const release = await kapi.kubectl(['patch', 'namespace', 'smp-fin', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
  t.is(release.code, 0, describe(release));
});
