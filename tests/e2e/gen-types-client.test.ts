// `kapi gen types` run as a process on the example widgets CRD and a CRD with every schema feature; its output,
// compiled in a project importing 'kapi', lists, gets, applies, watches and informs against a running kapi, with the
// credentials of a kubeconfig.
import test from 'ava';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { ApiClient, ApiError, writeKubeconfig, type TypedInformer, type TypedStatusClient, type WatchEvent } from '../../index.js';
import { compileProject, typesProject } from '../helpers/generated-types-project.js';
import { gizmosCrdYaml } from '../helpers/gizmos-crd.js';
import { removeDir, repoRoot } from '../helpers/kapi-process.js';
import { installCrd, suffix, useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

interface Gizmo {
  apiVersion: 'kinds.example.com/v1';
  kind: 'Gizmo';
  metadata?: { name?: string; resourceVersion?: string };
  spec: { size: string; port?: number | string; template?: Record<string, unknown> };
  status?: { phase?: string };
}
interface Widget {
  apiVersion: 'example.com/v1';
  kind: 'Widget';
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: { color?: string; replicas?: number };
}
interface Generated {
  gizmos: { gizmoClient(api: ApiClient): TypedStatusClient<Gizmo> };
  widgets: {
    widgetClient(api: ApiClient, namespace?: string): TypedStatusClient<Widget>;
    widgetInformer(api: ApiClient, namespace?: string, options?: object): TypedInformer<Widget>;
  };
}

let project = '';
let generated: Generated;
let api: ApiClient;

function kapi(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/kapi', ...args], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

test.serial.before(async (t) => {
  t.timeout(120_000);
  await installCrd(server, YAML.parse(gizmosCrdYaml));
  project = typesProject({ 'gizmos-crd.yaml': gizmosCrdYaml });
  const out = join(project, 'generated');
  const run = await kapi(['gen', 'types', 'examples/crd-only/widgets-crd.yaml', join(project, 'gizmos-crd.yaml'), '-o', out]);
  if (run.code !== 0) throw new Error(`kapi gen types failed: ${run.stderr}`);
  const errors = compileProject(project, ['generated/gizmo.v1.ts', 'generated/gizmo.v1beta1.ts', 'generated/widget.v1.ts'], true);
  if (errors.length) throw new Error(`the generated files do not compile:\n${errors.join('\n')}`);
  const load = (file: string) => import(pathToFileURL(join(out, file)).href);
  generated = { gizmos: await load('gizmo.v1.js'), widgets: await load('widget.v1.js') };
  const kubeconfig = join(project, 'kubeconfig');
  await writeKubeconfig(kubeconfig, { server: server.url, caCertPem: server.ca, token: server.token, clusterName: 'kapi', userName: 'admin', contextName: 'kapi' });
  api = ApiClient.fromKubeconfig(kubeconfig);
});
test.after.always(() => {
  api?.close();
  if (project) removeDir(project);
});

/** The next event of `events` that `pick` accepts. */
async function next<T>(events: AsyncIterator<WatchEvent<T>>, pick: (e: WatchEvent<T>) => boolean): Promise<WatchEvent<T>> {
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error('the watch ended');
    if (pick(value)) return value;
  }
}

test.serial('a cluster-scoped kind: apply creates and updates, get and list read, the status verbs write status', async (t) => {
  const gizmos = generated.gizmos.gizmoClient(api);
  const name = `g-${suffix()}`;
  const template = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } };
  const created = await gizmos.apply({ apiVersion: 'kinds.example.com/v1', kind: 'Gizmo', metadata: { name }, spec: { size: 'small', port: 'http', template } }, { fieldManager: 'gen-types-test' });
  t.deepEqual(created.spec, { size: 'small', port: 'http', template });
  const applied = await gizmos.apply({ apiVersion: 'kinds.example.com/v1', kind: 'Gizmo', metadata: { name }, spec: { size: 'large', port: 8080 } }, { fieldManager: 'gen-types-test' });
  t.deepEqual(applied.spec, { size: 'large', port: 8080 });
  t.is((await gizmos.get(name)).spec.size, 'large');
  t.true((await gizmos.list()).items.some((g) => g.metadata?.name === name));
  const withStatus = await gizmos.patchStatus(name, { status: { phase: 'Ready' } });
  t.is(withStatus.status?.phase, 'Ready');
  t.is((await gizmos.getStatus(name)).status?.phase, 'Ready');
  await gizmos.delete(name);
  const err = await t.throwsAsync(gizmos.get(name), { instanceOf: ApiError });
  t.is(err?.code, 404, err?.message);
  t.is(err?.reason, 'NotFound');
  t.is(err?.message, `gizmos.kinds.example.com "${name}" not found`);
});

test.serial('a refused write rejects with the server Status', async (t) => {
  const gizmos = generated.gizmos.gizmoClient(api);
  const bad = { apiVersion: 'kinds.example.com/v1', kind: 'Gizmo', metadata: { name: `g-${suffix()}` }, spec: { size: 'medium' } } as const;
  const err = await t.throwsAsync(gizmos.create(bad), { instanceOf: ApiError });
  t.is(err?.code, 422);
  t.is(err?.reason, 'Invalid');
  t.regex(err?.message ?? '', /spec\.size: Unsupported value: "medium": supported values: "small", "large"/);
});

test.serial('deleteCollection deletes the objects its selector picks, in the client namespace', async (t) => {
  const widgets = generated.widgets.widgetClient(api, 'default');
  const batch = `b-${suffix()}`;
  const make = (name: string, labels: Record<string, string>) =>
    widgets.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, labels }, spec: { color: 'red' } });
  await make(`${batch}-1`, { batch });
  await make(`${batch}-2`, { batch });
  await make(`${batch}-3`, { batch: 'other' });
  await widgets.deleteCollection({ labelSelector: `batch=${batch}` });
  const left = (await widgets.list({ labelSelector: 'batch' })).items.map((w) => w.metadata?.name).filter((n) => n?.startsWith(batch));
  t.deepEqual(left, [`${batch}-3`]);
  await widgets.delete(`${batch}-3`);
});

test.serial('watch from a list resourceVersion sees the changes after it', async (t) => {
  const widgets = generated.widgets.widgetClient(api, 'default');
  const name = `w-${suffix()}`;
  const list = await widgets.list();
  const abort = new AbortController();
  const events = widgets.watch({ resourceVersion: list.metadata.resourceVersion, signal: abort.signal });
  const mine = (e: WatchEvent<Widget>) => e.object.metadata?.name === name;
  await widgets.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { color: 'blue', replicas: 1 } });
  t.is((await next(events, mine)).type, 'ADDED');
  await widgets.patch(name, { spec: { replicas: 2 } });
  const modified = await next(events, mine);
  t.is(modified.type, 'MODIFIED');
  t.deepEqual(modified.object.spec, { color: 'blue', replicas: 2 });
  await widgets.delete(name);
  t.is((await next(events, mine)).type, 'DELETED');
  abort.abort();
  await events.return(undefined);
});

test.serial('an informer caches the objects and reports adds, updates and deletes, across resumed watches', async (t) => {
  const namespace = 'default';
  const widgets = generated.widgets.widgetClient(api, namespace);
  const name = `w-${suffix()}`;
  await widgets.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { color: 'red' } });
  const informer = generated.widgets.widgetInformer(api, namespace, { watchTimeoutSeconds: 1, retryDelayMs: 50 });
  const seen: string[] = [];
  const errors: unknown[] = [];
  informer.on({
    add: (w) => seen.push(`add ${w.metadata?.name}`),
    update: (_old, w) => seen.push(`update ${w.metadata?.name} ${w.spec?.color}`),
    delete: (w) => seen.push(`delete ${w.metadata?.name}`),
    error: (err) => errors.push(err),
  });
  t.teardown(() => informer.stop());
  await informer.start();
  t.is(informer.get(name, namespace)?.spec?.color, 'red');
  t.true(seen.includes(`add ${name}`));

  await widgets.patch(name, { spec: { color: 'green' } });
  await server.waitFor(() => seen.includes(`update ${name} green`), 10_000, 'the update');

  // The informer's watches end after a second; it resumes each from the last version it saw.
  const later = `w-${suffix()}`;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await widgets.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: later }, spec: { color: 'blue' } });
  await widgets.delete(name);
  await server.waitFor(() => seen.includes(`add ${later}`) && seen.includes(`delete ${name}`), 10_000, 'the events after a resumed watch');
  t.is(informer.get(name, namespace), undefined);
  t.is(informer.get(later, namespace)?.spec?.color, 'blue');
  t.deepEqual(errors, []);
  await widgets.delete(later);
});
