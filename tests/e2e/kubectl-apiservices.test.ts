// APIServices with the real kubectl against `kapi serve`: apply and get (kube-aggregator's columns), kube's
// validation errors, the status subresource.
import test from 'ava';
import { describe, row, table, useKapi, type KubectlResult } from '../helpers/kapi-process.js';

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
