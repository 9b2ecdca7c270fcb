// kubectl against `kapi serve` with its own service ranges: kubectl create service, get svc,ep columns, describe svc,
// explain, allocation conflicts as kube words them.
import test from 'ava';
import { describe, row, table, useKapi, type KubectlResult } from '../helpers/kapi-process.js';

// Serial: the node ports tests ask for by value must not be taken by another test's dynamic allocation first (the
// 11-port range is all static band).
const kapi = useKapi({ args: ['--service-cluster-ip-range', '10.96.0.0/28', '--service-node-port-range', '31000-31010'] });

async function ok(args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

async function namespace(name: string): Promise<void> {
  await ok(['create', 'namespace', name]);
}

/** 10.96.0.1 to 10.96.0.14: the usable addresses of 10.96.0.0/28. */
const inRange = /^10\.96\.0\.([1-9]|1[0-4])$/;

test.serial('kubectl create service clusterip|nodeport|externalname, then get svc prints kube\'s columns', async (t) => {
  await namespace('svc-create');
  const n = ['-n', 'svc-create'];
  t.regex((await ok([...n, 'create', 'service', 'clusterip', 'web', '--tcp=80:8080'])).stdout, /^service\/web created$/m);
  await ok([...n, 'create', 'service', 'clusterip', 'headless', '--clusterip=None']);
  await ok([...n, 'create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=31005']);
  await ok([...n, 'create', 'service', 'externalname', 'db', '--external-name=db.example.com']);
  const out = await ok([...n, 'get', 'svc', '-o', 'wide']);
  const rows = table(out.stdout);
  t.deepEqual(rows[0], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR'], out.stdout);
  const web = row(rows, 'web')!;
  t.deepEqual([web[1], web[3], web[4], web[6]], ['ClusterIP', '<none>', '80/TCP', 'app=web']);
  t.regex(web[2]!, inRange);
  t.deepEqual(row(rows, 'headless')!.slice(1, 5), ['ClusterIP', 'None', '<none>', '<none>']);
  const np = row(rows, 'np')!;
  t.deepEqual([np[1], np[4]], ['NodePort', '80:31005/TCP']);
  t.regex(np[2]!, inRange);
  t.deepEqual(row(rows, 'db')!.slice(1, 5), ['ExternalName', '<none>', 'db.example.com', '<none>']);
});

test.serial('a taken node port or one outside --service-node-port-range is refused with kube\'s words', async (t) => {
  await namespace('svc-conflict');
  const n = ['-n', 'svc-conflict'];
  await ok([...n, 'create', 'service', 'nodeport', 'first', '--tcp=80', '--node-port=31001']);
  const taken = await kapi.kubectl([...n, 'create', 'service', 'nodeport', 'second', '--tcp=80', '--node-port=31001']);
  t.not(taken.code, 0);
  t.is(
    taken.stderr.trim(),
    'error: failed to create NodePort service: Service "second" is invalid: spec.ports[0].nodePort: Invalid value: 31001: provided port is already allocated',
  );
  const outside = await kapi.kubectl([...n, 'create', 'service', 'nodeport', 'third', '--tcp=80', '--node-port=30000']);
  t.is(
    outside.stderr.trim(),
    'error: failed to create NodePort service: Service "third" is invalid: spec.ports[0].nodePort: Invalid value: 30000: provided port is not in the valid range. The range of valid ports is 31000-31010',
  );
  const ip = await kapi.kubectl([...n, 'create', 'service', 'clusterip', 'fourth', '--tcp=80', '--clusterip=10.0.0.5']);
  t.is(
    ip.stderr.trim(),
    'error: failed to create ClusterIP service: Service "fourth" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: provided IP 10.0.0.5 is not in the valid range',
  );
});

test.serial('a selectorless Service with the Endpoints users write: get svc,ep columns, the deprecation warning, describe svc', async (t) => {
  await namespace('svc-ep');
  const n = ['-n', 'svc-ep'];
  await ok(
    [...n, 'apply', '-f', '-'],
    `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  ports:
  - name: https
    port: 443
    targetPort: 8443
---
apiVersion: v1
kind: Endpoints
metadata:
  name: api
subsets:
- addresses: [{ip: 192.0.2.1}, {ip: 192.0.2.2}, {ip: 192.0.2.3}, {ip: 192.0.2.4}]
  ports: [{name: https, port: 8443}]
`,
  );
  const both = await ok([...n, 'get', 'svc,ep']);
  const rows = table(both.stdout);
  const api = row(rows, 'service/api')!;
  t.deepEqual([api[1], api[3], api[4]], ['ClusterIP', '<none>', '443/TCP'], both.stdout);
  t.regex(api[2]!, inRange);
  const ip = api[2]!.replaceAll('.', '\\.');
  t.deepEqual(row(rows, 'endpoints/api')!.slice(1, 5), ['192.0.2.1:8443,192.0.2.2:8443,192.0.2.3:8443', '+', '1', 'more...'], both.stdout);
  t.regex(both.stderr, /^Warning: v1 Endpoints is deprecated in v1\.33\+; use discovery\.k8s\.io\/v1 EndpointSlice$/m);
  const ep = await ok([...n, 'get', 'ep', 'api']);
  t.deepEqual(table(ep.stdout)[0], ['NAME', 'ENDPOINTS', 'AGE']);

  const desc = await ok([...n, 'describe', 'svc', 'api']);
  for (const line of [
    /^Name:\s+api$/m,
    /^Namespace:\s+svc-ep$/m,
    /^Selector:\s+<none>$/m,
    /^Type:\s+ClusterIP$/m,
    /^IP Family Policy:\s+SingleStack$/m,
    /^IP Families:\s+IPv4$/m,
    new RegExp(`^IP:\\s+${ip}$`, 'm'),
    new RegExp(`^IPs:\\s+${ip}$`, 'm'),
    /^Port:\s+https\s+443\/TCP$/m,
    /^TargetPort:\s+8443\/TCP$/m,
    /^Session Affinity:\s+None$/m,
    /^Internal Traffic Policy:\s+Cluster$/m,
  ]) {
    t.regex(desc.stdout, line);
  }
});

test.serial('kubectl explain knows Services and Endpoints; get svc -o yaml shows kube\'s defaults', async (t) => {
  const explain = await ok(['explain', 'service.spec.clusterIP']);
  t.regex(explain.stdout, /KIND:\s+Service/);
  t.regex(explain.stdout, /clusterIP is the IP address of the service/);
  t.regex((await ok(['explain', 'endpoints.subsets'])).stdout, /KIND:\s+Endpoints/);
  await namespace('svc-yaml');
  await ok(['-n', 'svc-yaml', 'create', 'service', 'loadbalancer', 'lb', '--tcp=443:8443']);
  const yaml = (await ok(['-n', 'svc-yaml', 'get', 'svc', 'lb', '-o', 'yaml'])).stdout;
  for (const line of [/^ {2}allocateLoadBalancerNodePorts: true$/m, /^ {2}externalTrafficPolicy: Cluster$/m, /^ {2}sessionAffinity: None$/m, /^ {4}nodePort: 310(0\d|10)$/m, /^ {2}loadBalancer: \{\}$/m]) {
    t.regex(yaml, line);
  }
  const lb = row(table((await ok(['-n', 'svc-yaml', 'get', 'svc', 'lb'])).stdout), 'lb')!;
  t.is(lb[3], '<pending>');
});
