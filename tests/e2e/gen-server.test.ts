// `kapi gen server` end to end, as its README tells a user: a project generated into a temporary folder, kapi
// installed into it from a packed tarball (offline), its own `npm test`, then `npm start` behind a front `kapi serve`
// where `kubectl apply -f deploy/` registers it, and `kubectl get`, `kubectl get -w` and `kubectl patch
// --subresource=status` through the front. One project for the whole file: installing and compiling it is slow.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubeconfigYaml } from '../../index.js';
import { endpointIp } from '../helpers/aggregated-backend.js';
import { installProjectOffline, npm, packKapi } from '../helpers/consumer-project.js';
import { freePort } from '../helpers/etcd-process.js';
import { runKapiCommand } from '../helpers/kapi-command.js';
import { describe, removeDir, table, tempDir, tempFile, useKapi, type KapiProcess } from '../helpers/kapi-process.js';
import { killAllKubectlStreams, spawnKubectl } from '../helpers/kubectl-stream.js';

const front = useKapi({ args: ['--storage', 'memory'] });
const root = tempDir('kapi-gen-server-');
const project = join(root, 'shop');
let server: ChildProcess | undefined;

async function ok(kapi: KapiProcess, args: string[], stdin?: string): Promise<string> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res.stdout;
}

test.serial.before(async (t) => {
  t.timeout(600_000);
  const { tarball } = await packKapi(root);
  const port = String(await freePort());
  const flags = ['--group', 'shop.example.com', '--kind', 'Order', '--kind', 'Box', '--kapi', tarball, '--address', endpointIp(), '--port', port];
  const gen = await runKapiCommand(['gen', 'server', 'shop', ...flags, '-o', project]);
  if (gen.code !== 0) throw new Error(`kapi gen server: exit ${gen.code}\n${gen.stderr}`);
  await installProjectOffline(project, tarball);
});

test.after.always(async () => {
  await killAllKubectlStreams();
  // npm start runs the server in a process group of its own: stop the group
  if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
    process.kill(-server.pid, 'SIGTERM');
    await once(server, 'exit');
  }
  removeDir(root);
});

test.serial("the generated project's own npm test builds it and passes (the server standalone, over HTTPS)", async (t) => {
  t.timeout(600_000);
  const out = await npm(project, ['test']);
  t.regex(out, /^\s*12 tests passed$/m);
});

/** `npm start` with FRONT_KUBECONFIG; resolves once the server printed its URL. */
async function npmStart(env: Record<string, string>): Promise<void> {
  server = spawn('npm', ['start'], { cwd: project, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    server!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (/shop serving on https:\/\//.test(output)) resolve();
    });
    server!.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}

test.serial('npm start, kubectl apply -f deploy/ at the front: the APIService is Available and kubectl get through the front lists the objects created', async (t) => {
  t.timeout(600_000);
  await ok(front, ['apply', '-f', join(project, 'deploy')]);
  // the server's identity at the front: its ServiceAccount, given what it needs by deploy/10-auth-delegation.yaml
  const token = (await ok(front, ['create', 'token', '-n', 'shop', 'shop'])).trim();
  const caCertPem = readFileSync(join(front.dataDir, 'pki', 'ca.crt'), 'utf8');
  const frontKubeconfig = tempFile('shop-front.kubeconfig', kubeconfigYaml({ server: front.url, caCertPem, token, clusterName: 'front', userName: 'shop', contextName: 'front' }));
  await npmStart({ FRONT_KUBECONFIG: frontKubeconfig, BIND_ADDRESS: endpointIp(), DATA_DIR: join(root, 'data') });
  await ok(front, ['wait', '--for=condition=Available', '--timeout=60s', 'apiservice/v1alpha1.shop.example.com']);

  for (const [name, message] of [['first', 'hello'], ['second', 'world']]) {
    await ok(front, ['create', '-n', 'default', '-f', '-'], `apiVersion: shop.example.com/v1alpha1\nkind: Order\nmetadata: {name: ${name}}\nspec: {message: ${message}}\n`);
  }
  const orders = table(await ok(front, ['get', 'orders', '-n', 'default']));
  t.deepEqual(orders[0], ['NAME', 'MESSAGE', 'SIZE', 'AGE']);
  t.deepEqual(
    orders.slice(1).map((r) => r.slice(0, 3)),
    [
      ['first', 'hello', '1'],
      ['second', 'world', '1'],
    ],
  );
  t.is(await ok(front, ['get', 'order', 'first', '-n', 'default', '-o', 'jsonpath={.metadata.labels.shop\\.example\\.com/admitted-by}']), 'shop');
  const refused = await front.kubectl(['create', '-n', 'default', '-f', '-'], { stdin: 'apiVersion: shop.example.com/v1alpha1\nkind: Box\nmetadata: {name: refused}\nspec: {message: forbidden}\n' });
  t.is(refused.code, 1, describe(refused));
  t.regex(refused.stderr, /The Box "refused" is invalid: spec\.message: Forbidden: this message is not allowed/);

  const info = table(await ok(front, ['get', 'serverinfos']));
  t.deepEqual(info[0], ['NAME', 'STARTED', 'UPTIME']);
  t.is(info[1]?.[0], 'server');
  t.is(await ok(front, ['get', 'serverinfo', 'server', '-o', 'jsonpath={.status.objects.orders}']), '2');
});

test.serial('kubectl get -w --output-watch-events through the front shows the changes made meanwhile', async (t) => {
  t.timeout(120_000);
  const w = spawnKubectl(front, ['get', 'boxes', '-n', 'default', '-w', '--output-watch-events']);
  try {
    // no boxes yet: kubectl prints its header with the first event
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await ok(front, ['create', '-n', 'default', '-f', '-'], 'apiVersion: shop.example.com/v1alpha1\nkind: Box\nmetadata: {name: watched}\nspec: {message: hello}\n');
    await w.waitForLine(/^ADDED\s+watched\s+hello\s+1\s/);
    let mark = w.lines.length;
    await ok(front, ['patch', 'box', 'watched', '-n', 'default', '--type=merge', '-p', '{"spec":{"size":7}}']);
    await w.waitForLine(/^MODIFIED\s+watched\s+hello\s+7\s/, { from: mark });
    mark = w.lines.length;
    await ok(front, ['delete', 'box', 'watched', '-n', 'default']);
    await w.waitForLine(/^DELETED\s+watched\s+hello\s+7\s/, { from: mark });
    t.deepEqual(
      w.lines.map((l) => l.split(/\s+/).slice(0, 2).join(' ')),
      ['EVENT NAME', 'ADDED watched', 'MODIFIED watched', 'DELETED watched'],
      w.describe(),
    );
  } finally {
    await w.kill();
  }
});

test.serial('kubectl patch --subresource=status changes the status; a plain patch of the status does not', async (t) => {
  const status = () => ok(front, ['get', 'order', 'first', '-n', 'default', '-o', 'jsonpath={.status.phase}']);
  t.is(await status(), '');
  await ok(front, ['patch', 'order', 'first', '-n', 'default', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Ready"}}']);
  t.is(await status(), 'Ready');
  await ok(front, ['patch', 'order', 'first', '-n', 'default', '--type=merge', '-p', '{"status":{"phase":"Failed"}}']);
  t.is(await status(), 'Ready');
  const refused = await front.kubectl(['patch', 'order', 'first', '-n', 'default', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Lost"}}']);
  t.is(refused.code, 1, describe(refused));
  t.regex(refused.stderr, /status\.phase: Unsupported value: "Lost": supported values: "Pending", "Ready", "Failed"/);
  const discovery = JSON.parse(await ok(front, ['get', '--raw', '/apis/shop.example.com/v1alpha1']));
  const verbsOf = (name: string) => discovery.resources.find((r: { name: string }) => r.name === name)?.verbs;
  t.deepEqual(verbsOf('orders/status'), ['get', 'patch', 'update']);
  t.deepEqual(verbsOf('orders'), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
});
