// APIServices with the real kubectl against `kapi serve`: apply and get (kube-aggregator's columns), kube's
// validation errors, the status subresource; the local APIServices of built-in group-versions and of CRDs (kube's
// autoregistration).
import test from 'ava';
import { describe, eventually, row, table, useKapi, type KubectlResult } from '../helpers/kapi-process.js';

const kapi = useKapi();

async function ok(args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

function apiServiceYaml(name: string, spec: string): string {
  return `apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
}

const remoteSpec = (group: string, version: string) =>
  `  group: ${group}\n  version: ${version}\n  groupPriorityMinimum: 100\n  versionPriority: 10\n  insecureSkipTLSVerify: true\n  service:\n    namespace: monitoring\n    name: metrics\n`;

test('kubectl apply and get apiservices: NAME, SERVICE (namespace/name or Local), AVAILABLE, AGE', async (t) => {
  await ok(['apply', '-f', '-'], apiServiceYaml('v1alpha1.printer.example.com', remoteSpec('printer.example.com', 'v1alpha1')));
  await ok(['apply', '-f', '-'], apiServiceYaml('v1.local.example.com', '  group: local.example.com\n  version: v1\n  groupPriorityMinimum: 100\n  versionPriority: 10\n'));

  const rows = table((await ok(['get', 'apiservices'])).stdout);
  t.deepEqual(rows[0], ['NAME', 'SERVICE', 'AVAILABLE', 'AGE']);
  t.deepEqual(row(rows, 'v1alpha1.printer.example.com')?.slice(0, 2), ['v1alpha1.printer.example.com', 'monitoring/metrics']);
  t.deepEqual(row(rows, 'v1.local.example.com')?.slice(0, 3), ['v1.local.example.com', 'Local', 'True']);

  const port = await ok(['get', 'apiservice', 'v1alpha1.printer.example.com', '-o', 'jsonpath={.spec.service.port}']);
  t.is(port.stdout, '443', 'the port defaults to 443');
  const local = await ok(['get', 'apiservice', 'v1.local.example.com', '-o', 'jsonpath={.status.conditions[0].reason}/{.status.conditions[0].message}']);
  t.is(local.stdout, 'Local/Local APIServices are always available');
});

test('kubectl explain describes APIServices from kube\'s schema', async (t) => {
  const res = await ok(['explain', 'apiservice.spec.groupPriorityMinimum']);
  t.regex(res.stdout, /GROUP:\s+apiregistration\.k8s\.io/);
  t.regex(res.stdout, /FIELD: groupPriorityMinimum <integer>/);
  t.true(res.stdout.includes('GroupPriorityMinimum is the priority this group should have at least.'), res.stdout);
});

test('invalid APIServices are refused with kube-aggregator\'s messages', async (t) => {
  const res = await kapi.kubectl(
    ['create', '-f', '-'],
    {
      stdin: apiServiceYaml(
        'v1.wrong.example.com',
        '  group: bad_group\n  version: V1\n  groupPriorityMinimum: 0\n  versionPriority: 1001\n  caBundle: UEVN\n  insecureSkipTLSVerify: true\n  service:\n    port: 70000\n',
      ),
    },
  );
  t.is(res.code, 1, describe(res));
  for (const expected of [
    'The APIService "v1.wrong.example.com" is invalid:',
    'metadata.name: Invalid value: "v1.wrong.example.com": must be `spec.version+"."+spec.group`: "V1.bad_group"',
    'spec.group: Invalid value: "bad_group": a lowercase RFC 1123 subdomain',
    'spec.version: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters',
    'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
    'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    'spec.service.namespace: Required value',
    'spec.service.name: Required value',
    'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
  ]) {
    t.true(res.stderr.includes(expected), `${expected}\n${res.stderr}`);
  }

  const local = await kapi.kubectl(['create', '-f', '-'], {
    stdin: apiServiceYaml('v2.', '  version: v2\n  groupPriorityMinimum: 1\n  versionPriority: 1\n  caBundle: UEVN\n  insecureSkipTLSVerify: true\n'),
  });
  t.is(local.code, 1, describe(local));
  for (const expected of [
    'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
    'spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle',
    'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
  ]) {
    t.true(local.stderr.includes(expected), `${expected}\n${local.stderr}`);
  }
});

test('the status subresource: a status write keeps the spec, a spec write keeps the status; kube\'s condition statuses', async (t) => {
  const name = 'v1.status.example.com';
  await ok(['create', '-f', '-'], apiServiceYaml(name, remoteSpec('status.example.com', 'v1')));
  // the condition the availability controller keeps for a Service that does not exist, so it does not rewrite it
  const patch = JSON.stringify({
    spec: { versionPriority: 999 },
    status: { conditions: [{ type: 'Available', status: 'False', reason: 'ServiceNotFound', message: 'service/metrics in "monitoring" is not present' }] },
  });
  await ok(['patch', 'apiservice', name, '--subresource=status', '--type=merge', '-p', patch]);
  const got = (await ok(['get', 'apiservice', name])).stdout;
  t.regex(got, /^v1\.status\.example\.com\s+monitoring\/metrics\s+False \(ServiceNotFound\)\s+\S+\s*$/m);
  t.is((await ok(['get', 'apiservice', name, '-o', 'jsonpath={.spec.versionPriority}'])).stdout, '10');

  await ok(['patch', 'apiservice', name, '--type=merge', '-p', JSON.stringify({ spec: { versionPriority: 20 }, status: { conditions: [] } })]);
  t.is((await ok(['get', 'apiservice', name, '-o', 'jsonpath={.spec.versionPriority} {.status.conditions[0].reason}'])).stdout, '20 ServiceNotFound');

  const bad = await kapi.kubectl(['patch', 'apiservice', name, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { conditions: [{ type: 'Available', status: 'Maybe' }] } })]);
  t.is(bad.code, 1, describe(bad));
  t.true(bad.stderr.includes('status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"'), bad.stderr);
});

test('every built-in group-version has its local APIService, with kube-apiserver\'s priorities', async (t) => {
  const rows = table((await ok(['get', 'apiservices'])).stdout);
  for (const name of ['v1.', 'v1.apiregistration.k8s.io', 'v1.rbac.authorization.k8s.io', 'v1.coordination.k8s.io', 'v1beta1.admissionregistration.k8s.io']) {
    t.deepEqual(row(rows, name)?.slice(0, 3), [name, 'Local', 'True'], name);
  }
  const core = await ok(['get', 'apiservice', 'v1.', '-o', 'jsonpath={.spec.groupPriorityMinimum}/{.spec.versionPriority} {.metadata.labels}']);
  t.is(core.stdout, '18000/1 {"kube-aggregator.kubernetes.io/automanaged":"onstart"}');
  const rbac = await ok(['get', 'apiservice', 'v1.rbac.authorization.k8s.io', '-o', 'jsonpath={.spec.groupPriorityMinimum}/{.spec.versionPriority}']);
  t.is(rbac.stdout, '17000/15');
});

const gadgetsCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.tools.example.com
spec:
  group: tools.example.com
  names: { plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList }
  scope: Namespaced
  versions:
    - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }
    - { name: v1beta1, served: true, storage: false, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }
    - { name: v1alpha1, served: false, storage: false, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }
`;

/** The names of the APIServices of group tools.example.com, once `done` holds of them. */
async function gadgetAPIServices(done: (names: string[]) => boolean): Promise<string[]> {
  return eventually(async () => table((await ok(['get', 'apiservices', '--no-headers'])).stdout).map((r) => r[0]!).filter((n) => n.endsWith('.tools.example.com')), done);
}

test('a CRD\'s served versions get local APIServices, kept to their spec, re-created when deleted, gone with the CRD', async (t) => {
  await ok(['apply', '-f', '-'], gadgetsCrd);
  t.deepEqual(await gadgetAPIServices((n) => n.length === 2), ['v1.tools.example.com', 'v1beta1.tools.example.com']);
  const spec = await ok(['get', 'apiservice', 'v1beta1.tools.example.com', '-o', 'jsonpath={.spec.groupPriorityMinimum}/{.spec.versionPriority} {.metadata.labels} {.status.conditions[0].reason}']);
  t.is(spec.stdout, '1000/100 {"kube-aggregator.kubernetes.io/automanaged":"true"} Local');

  const uid = (await ok(['get', 'apiservice', 'v1.tools.example.com', '-o', 'jsonpath={.metadata.uid}'])).stdout;
  await ok(['delete', 'apiservice', 'v1.tools.example.com']);
  const recreated = await eventually(
    () => kapi.kubectl(['get', 'apiservice', 'v1.tools.example.com', '-o', 'jsonpath={.metadata.uid}']),
    (r) => r.code === 0 && r.stdout !== uid,
  );
  t.is(recreated.code, 0, describe(recreated));
  t.not(recreated.stdout, uid);

  // a change to its spec is undone
  await ok(['patch', 'apiservice', 'v1.tools.example.com', '--type=merge', '-p', '{"spec":{"versionPriority":5}}']);
  const restored = await eventually(
    () => ok(['get', 'apiservice', 'v1.tools.example.com', '-o', 'jsonpath={.spec.versionPriority}']),
    (r) => r.stdout === '100',
  );
  t.is(restored.stdout, '100');

  // a version no longer served loses its APIService
  await ok(['patch', 'crd', 'gadgets.tools.example.com', '--type=json', '-p', '[{"op":"replace","path":"/spec/versions/1/served","value":false}]']);
  t.deepEqual(await gadgetAPIServices((n) => n.length === 1), ['v1.tools.example.com']);

  await ok(['delete', 'crd', 'gadgets.tools.example.com']);
  t.deepEqual(await gadgetAPIServices((n) => n.length === 0), []);
});
