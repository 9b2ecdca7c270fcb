// Leases and Events with the real kubectl against `kapi serve`: `get leases`, `get events` (with a field selector),
// `kubectl events`, the events of a custom resource in `kubectl describe`, and an events.k8s.io/v1 Event read as a
// core/v1 one.
import test from 'ava';
import { describe, row, table, useKapi, type KubectlResult } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true, args: ['--event-ttl', '1h'] });

async function ok(args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** A core/v1 Event about `kind/name` in `ns`, as client-go's legacy recorder writes one. */
function coreEventYaml(ns: string, name: string, kind: string, target: string, reason: string, message: string, type = 'Normal'): string {
  return `apiVersion: v1
kind: Event
metadata:
  name: ${name}
  namespace: ${ns}
involvedObject:
  apiVersion: example.com/v1
  kind: ${kind}
  namespace: ${ns}
  name: ${target}
reason: ${reason}
message: ${message}
source:
  component: e2e-recorder
firstTimestamp: ${now()}
lastTimestamp: ${now()}
count: 1
type: ${type}
`;
}

test('kubectl get leases prints NAME, HOLDER, AGE', async (t) => {
  await ok(['create', 'namespace', 'leases-e2e']);
  await ok(
    ['-n', 'leases-e2e', 'create', '-f', '-'],
    `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: my-operator\nspec:\n  holderIdentity: pod-a_1234\n  leaseDurationSeconds: 15\n  renewTime: "2026-01-01T00:00:00.000000Z"\n`,
  );
  const res = await ok(['-n', 'leases-e2e', 'get', 'leases']);
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'HOLDER', 'AGE']);
  t.deepEqual(row(rows, 'my-operator')?.slice(0, 2), ['my-operator', 'pod-a_1234']);
  const yaml = await ok(['-n', 'leases-e2e', 'get', 'lease', 'my-operator', '-o', 'jsonpath={.spec.renewTime}']);
  t.is(yaml.stdout, '2026-01-01T00:00:00.000000Z');
});

test('kubectl get events and --field-selector involvedObject.name=X, kubectl events -n NS', async (t) => {
  const ns = 'events-e2e';
  await ok(['create', 'namespace', ns]);
  await ok(['create', '-f', '-'], [coreEventYaml(ns, 'w1.a', 'Widget', 'w1', 'Painted', 'painted red'), coreEventYaml(ns, 'w2.a', 'Widget', 'w2', 'Broken', 'cracked', 'Warning')].join('---\n'));

  const all = await ok(['-n', ns, 'get', 'events']);
  const rows = table(all.stdout);
  t.deepEqual(rows[0], ['LAST', 'SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
  t.true(all.stdout.split('\n').some((l) => /^\S+\s+Warning\s+Broken\s+widget\/w2\s+cracked\s*$/.test(l)), all.stdout);

  const selected = await ok(['-n', ns, 'get', 'events', '--field-selector', 'involvedObject.name=w1', '-o', 'name']);
  t.is(selected.stdout.trim(), 'event/w1.a');

  const events = await ok(['events', '-n', ns]);
  const lines = events.stdout.trim().split('\n');
  t.regex(lines[0]!, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
  t.true(lines.some((l) => /\s+Normal\s+Painted\s+Widget\/w1\s+painted red$/.test(l)), events.stdout);
  const warnings = await ok(['events', '-n', ns, '--types=Warning']);
  t.false(warnings.stdout.includes('Painted'), warnings.stdout);
  t.true(warnings.stdout.includes('cracked'), warnings.stdout);
});

test("kubectl describe of a custom resource shows its events (kubectl's field-selector search)", async (t) => {
  await ok(['-n', 'demo', 'apply', '-f', '-'], 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: described\nspec:\n  color: red\n  replicas: 1\n');
  const uid = (await ok(['-n', 'demo', 'get', 'widget', 'described', '-o', 'jsonpath={.metadata.uid}'])).stdout;
  const event = coreEventYaml('demo', 'described.1', 'Widget', 'described', 'Inspected', 'looked fine').replace('  name: described\n', `  name: described\n  uid: ${uid}\n`);
  await ok(['create', '-f', '-'], event);
  const res = await ok(['-n', 'demo', 'describe', 'widget', 'described']);
  const events = res.stdout.slice(res.stdout.indexOf('Events:'));
  t.regex(events, /Type\s+Reason\s+Age\s+From\s+Message/);
  t.regex(events, /Normal\s+Inspected\s+\S+\s+e2e-recorder\s+looked fine/);
});

test('an events.k8s.io/v1 Event created with kubectl is listed by kubectl get events (core/v1)', async (t) => {
  await ok(['create', 'namespace', 'events-new']);
  await ok(
    ['create', '-f', '-'],
    `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: modern
  namespace: events-new
eventTime: "${new Date().toISOString().replace('Z', '000Z')}"
reportingController: example.com/operator
reportingInstance: operator-0
action: Scale
reason: Scaled
regarding:
  apiVersion: example.com/v1
  kind: Widget
  namespace: events-new
  name: big
note: scaled to 3
type: Normal
`,
  );
  const res = await ok(['-n', 'events-new', 'get', 'events', '-o', 'wide']);
  t.true(res.stdout.split('\n').some((l) => /Normal\s+Scaled\s+widget\/big\s+example\.com\/operator, operator-0\s+scaled to 3/.test(l)), res.stdout);
  const v1 = await ok(['-n', 'events-new', 'get', 'events.v1.events.k8s.io', 'modern', '-o', 'jsonpath={.note}']);
  t.is(v1.stdout, 'scaled to 3');
});

test('kubectl replace of a missing Lease or Endpoints creates it, as kube does; of a missing ConfigMap it fails', async (t) => {
  const ns = 'replace-creates-e2e';
  await ok(['create', 'namespace', ns]);
  const replaced = await ok(
    ['-n', ns, 'replace', '-f', '-'],
    [
      `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: fresh\nspec:\n  holderIdentity: pod-b\n  leaseDurationSeconds: 10\n`,
      `apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: fresh\nsubsets:\n- addresses:\n  - ip: 10.1.0.7\n  ports:\n  - port: 8443\n`,
    ].join('---\n'),
  );
  t.regex(replaced.stdout, /lease\.coordination\.k8s\.io\/fresh replaced/);
  t.regex(replaced.stdout, /endpoints\/fresh replaced/);
  t.is((await ok(['-n', ns, 'get', 'lease', 'fresh', '-o', 'jsonpath={.spec.holderIdentity}'])).stdout, 'pod-b');
  t.is((await ok(['-n', ns, 'get', 'endpoints', 'fresh', '-o', 'jsonpath={.subsets[0].addresses[0].ip}'])).stdout, '10.1.0.7');

  const cm = await kapi.kubectl(['-n', ns, 'replace', '-f', '-'], { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fresh\n' });
  t.not(cm.code, 0);
  t.regex(cm.stderr, /configmaps "fresh" not found/);
});
