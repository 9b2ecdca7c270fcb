// Two `kapi serve` processes: a front with an APIService for example.com/v1 routed to a backend kapi that serves the
// widgets CRD and trusts the front's generated front-proxy certificate (--requestheader-client-ca-file). kubectl talks
// to the front only: the backend's resources are in the front's discovery and OpenAPI, so kubectl works on them by name.
import test from 'ava';
import { join } from 'node:path';
import { describe, removeDir, setUpWidgets, startKapi, tempDir, tempFile, useKapi, type KapiProcess, type KubectlResult } from '../helpers/kapi-process.js';
import { killAllKubectlStreams, spawnKubectl } from '../helpers/kubectl-stream.js';
import { endpointIp } from '../helpers/aggregated-backend.js';

const tokens = tempFile('tokens.csv', 'alice-token,alice,u-alice,"widget-readers"\ncarol-token,carol,u-carol,"others"\ndave-token,dave,u-dave,""\n');
const front = useKapi({ args: ['--storage', 'memory', '--token-auth-file', tokens] });
const ip = endpointIp();
const backendDir = tempDir('kapi-e2e-backend-');
let backend: KapiProcess;
let backendPort: number;

function startBackend(port: number): Promise<KapiProcess> {
  return startKapi({
    dataDir: backendDir,
    args: ['--bind-address', ip, '--port', String(port), '--requestheader-client-ca-file', join(front.dataDir, 'pki', 'front-proxy-ca.crt'), '--requestheader-allowed-names', 'front-proxy-client'],
  });
}

async function ok(kapi: KapiProcess, args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

/** Users may read and create widgets: at the front alice and carol by name, at the backend the group widget-readers. */
function widgetRbac(subjects: string): string {
  return `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: widgets}
rules: [{apiGroups: [example.com], resources: [widgets], verbs: [get, list, watch, create]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: widgets}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: widgets}
subjects: ${subjects}
`;
}

test.before(async () => {
  backend = await startBackend(0);
  backendPort = Number(new URL(backend.url).port);
  await setUpWidgets(backend);
  await ok(backend, ['apply', '-f', '-'], widgetRbac('[{apiGroup: rbac.authorization.k8s.io, kind: Group, name: widget-readers}]'));
  await ok(front, ['apply', '-f', '-'], widgetRbac('[{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}, {apiGroup: rbac.authorization.k8s.io, kind: User, name: carol}]'));
  await ok(front, ['apply', '-f', '-'], `apiVersion: v1
kind: Namespace
metadata: {name: widget-api}
---
apiVersion: v1
kind: Service
metadata: {name: backend, namespace: widget-api}
spec: {ports: [{port: 443}]}
---
apiVersion: v1
kind: Endpoints
metadata: {name: backend, namespace: widget-api}
subsets: [{addresses: [{ip: ${ip}}], ports: [{port: ${backendPort}}]}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.example.com}
spec:
  group: example.com
  version: v1
  service: {namespace: widget-api, name: backend}
  insecureSkipTLSVerify: true
  groupPriorityMinimum: 1000
  versionPriority: 15
`);
  await ok(front, ['wait', '--for=condition=Available', '--timeout=20s', 'apiservice/v1.example.com']);
});

test.after.always(async () => {
  await killAllKubectlStreams();
  await backend?.stop();
  removeDir(backendDir);
});

const widgets = '/apis/example.com/v1/namespaces/demo/widgets';

test.serial('kubectl get apiservices shows the backend Available (Passed)', async (t) => {
  const res = await ok(front, ['get', 'apiservice', 'v1.example.com']);
  t.regex(res.stdout, /^v1\.example\.com\s+widget-api\/backend\s+True\s+\S+\s*$/m, res.stdout);
  t.is((await ok(front, ['get', 'apiservice', 'v1.example.com', '-o', 'jsonpath={.status.conditions[0].reason}'])).stdout, 'Passed');
});

test.serial('kubectl api-resources through the front lists the backend\'s widgets', async (t) => {
  const res = await ok(front, ['api-resources', '--api-group=example.com']);
  t.regex(res.stdout, /^widgets\s+wd,wdg\s+example\.com\/v1\s+true\s+Widget\s*$/m, res.stdout);
});

test.serial('through the front, kubectl creates, gets, watches, applies server-side and deletes widgets by name', async (t) => {
  const watch = spawnKubectl(front, ['get', 'widgets', '-n', 'demo', '-w', '-o', 'custom-columns=NAME:.metadata.name,COLOR:.spec.color', '--no-headers']);
  const created = await ok(front, ['create', '-f', '-'], 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: by-name, namespace: demo}\nspec: {color: red, replicas: 1}\n');
  t.is(created.stdout, 'widget.example.com/by-name created\n');
  await watch.waitForLine(/^by-name\s+red$/, { timeoutMs: 10_000 });
  const got = await ok(front, ['get', 'wd', 'by-name', '-n', 'demo']);
  t.regex(got.stdout, /^NAME\s+COLOR\s+REPLICAS\s+AGE\n^by-name\s+red\s+1\s+\S+\s*$/m, got.stdout);

  const applied = await ok(front, ['apply', '--server-side', '--force-conflicts', '--field-manager', 'e2e', '-f', '-'], 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: by-name, namespace: demo}\nspec: {color: green}\n');
  t.is(applied.stdout, 'widget.example.com/by-name serverside-applied\n');
  await watch.waitForLine(/^by-name\s+green$/, { timeoutMs: 10_000 });
  t.is((await ok(backend, ['get', 'widget', 'by-name', '-n', 'demo', '-o', 'jsonpath={.spec.color}'])).stdout, 'green');

  t.is((await ok(front, ['delete', 'widget', 'by-name', '-n', 'demo'])).stdout, 'widget.example.com "by-name" deleted\n');
  t.is((await ok(front, ['get', 'widgets', '-n', 'demo', '-o', 'name'])).stdout, '');
});

test.serial('kubectl explain reads the backend\'s OpenAPI v3 through the front; /openapi/v2 has its paths merged', async (t) => {
  const explained = await ok(front, ['explain', 'widgets.spec']);
  t.regex(explained.stdout, /^GROUP:\s+example\.com$/m, explained.stdout);
  t.regex(explained.stdout, /^KIND:\s+Widget$/m);
  t.regex(explained.stdout, /^\s+color\s+<string>$/m);
  const index = JSON.parse((await ok(front, ['get', '--raw', '/openapi/v3'])).stdout);
  const backendIndex = JSON.parse((await ok(backend, ['get', '--raw', '/openapi/v3'])).stdout);
  t.is(index.paths['apis/example.com/v1'].serverRelativeURL, backendIndex.paths['apis/example.com/v1'].serverRelativeURL, 'listed with the backend\'s hash');
  const v2 = JSON.parse((await ok(front, ['get', '--raw', '/openapi/v2'])).stdout);
  t.truthy(v2.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}']);
  t.is(v2.definitions['com.example.v1.Widget']?.['x-kubernetes-group-version-kind']?.[0]?.kind, 'Widget');
  t.truthy(v2.paths['/api/v1/namespaces'], 'the front\'s own paths are still there');
});

test.serial('through the front, a watch streams what a create through the front made, as the user the backend authorized by group', async (t) => {
  const watch = spawnKubectl(front, ['get', '--raw', `${widgets}?watch=true`, '--token', 'alice-token']);
  const widget = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'via-front' }, spec: { color: 'blue' } });
  const created = await front.kubectl(['create', '--raw', widgets, '-f', '-', '--token', 'alice-token'], { stdin: widget });
  t.is(created.code, 0, describe(created));
  await watch.waitForLine(/"name":"via-front"/, { timeoutMs: 10_000 });
  const list = JSON.parse((await ok(front, ['get', '--raw', widgets, '--token', 'alice-token'])).stdout);
  t.deepEqual(list.items.map((w: any) => w.metadata.name), ['via-front']);
  // stored by the backend, not the front
  t.is((await ok(backend, ['get', 'widgets', '-n', 'demo', '-o', 'name'])).stdout, 'widget.example.com/via-front\n');
});

test.serial('the backend sees the front\'s user: one the front allows but the backend does not is refused by the backend, by name', async (t) => {
  const res = await front.kubectl(['get', '--raw', widgets, '--token', 'carol-token']);
  t.is(res.code, 1);
  t.regex(res.stderr, /Error from server \(Forbidden\): widgets\.example\.com is forbidden: User "carol" cannot list resource "widgets" in API group "example\.com" in the namespace "demo"/);
});

test.serial('a user the front refuses is refused by the front', async (t) => {
  const res = await front.kubectl(['get', '--raw', widgets, '--token', 'dave-token']);
  t.is(res.code, 1);
  t.regex(res.stderr, /Error from server \(Forbidden\): widgets\.example\.com is forbidden: User "dave" cannot list resource "widgets"/);
});

test.serial('stopping the backend makes the APIService unavailable and requests 503; restarting it recovers', async (t) => {
  await backend.stop();
  // an Endpoints change has the controller check at once, as kube's does, rather than at its 30s resync
  await ok(front, ['annotate', '-n', 'widget-api', 'endpoints', 'backend', 'kapi.test/backend=stopped']);
  await ok(front, ['wait', '--for=condition=Available=False', '--timeout=20s', 'apiservice/v1.example.com']);
  const got = await ok(front, ['get', 'apiservice', 'v1.example.com']);
  t.regex(got.stdout, /^v1\.example\.com\s+widget-api\/backend\s+False \(FailedDiscoveryCheck\)\s+\S+\s*$/m, got.stdout);
  const unavailable = await front.kubectl(['get', '--raw', widgets, '--token', 'alice-token']);
  t.is(unavailable.code, 1);
  t.regex(unavailable.stderr, /Error from server \(ServiceUnavailable\): the server is currently unable to handle the request/);
  // aggregated discovery lists example.com/v1 Stale (as kube does): client-go leaves its resources out
  t.notRegex((await ok(front, ['api-resources', '--api-group=example.com'])).stdout, /^widgets/m);
  const byName = await front.kubectl(['get', 'widgets', '-n', 'demo']);
  t.is(byName.stderr, 'error: the server doesn\'t have a resource type "widgets"\n');

  backend = await startBackend(backendPort);
  await ok(front, ['wait', '--for=condition=Available', '--timeout=40s', 'apiservice/v1.example.com']);
  const list = JSON.parse((await ok(front, ['get', '--raw', widgets, '--token', 'alice-token'])).stdout);
  t.deepEqual(list.items.map((w: any) => w.metadata.name), ['via-front']);
  // the APIService turning Available has the front read the backend's discovery again at once
  const listed = /^widgets\s+wd,wdg\s+example\.com\/v1\s+true\s+Widget\s*$/m;
  let resources = '';
  for (let i = 0; i < 20 && !listed.test(resources); i++) {
    if (i) await new Promise((r) => setTimeout(r, 250));
    resources = (await ok(front, ['api-resources', '--api-group=example.com'])).stdout;
  }
  t.regex(resources, listed);
  t.is((await ok(front, ['get', 'widgets', '-n', 'demo', '-o', 'name'])).stdout, 'widget.example.com/via-front\n');
});
