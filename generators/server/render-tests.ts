import type { ServerModel } from './server-model.js';

/** test/server.test.ts: ava tests starting the server standalone and driving it over HTTPS with kapi's client. */
export function renderServerTest(m: ServerModel): string {
  const kinds = m.kinds.map((k) => `  { kind: '${k.kind}', plural: '${k.plural}' },\n`).join('');
  return `// The server, started standalone on a free port with its data in a temporary folder, driven over HTTPS as its admin
// with kapi's client (ApiClient: the server and token of the kubeconfig the server writes).
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient, ApiError, TypedStatusClient, type KubeObject, type ObjectMeta, type RestContext } from 'kapi';
import { admittedByLabel } from '../src/admission.js';
import { group, version } from '../src/crds.js';
import { openDatabase, sqliteStorage } from '../src/sqlite-storage.js';

const kinds = [
${kinds}];

/** An object of any of the kinds (they have the same fields). */
interface Item {
  apiVersion: string;
  kind: string;
  metadata?: ObjectMeta;
  spec: { message: string; size?: number };
  status?: { phase?: string; observedGeneration?: number };
}
const dataDir = mkdtempSync(join(tmpdir(), '${m.name}-test-'));
let server: ChildProcess;
let api: ApiClient;

test.before(async () => {
  server = spawn(process.execPath, [fileURLToPath(new URL('../src/main.js', import.meta.url)), '--standalone'], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('serving on https://')) resolve();
    });
    server.once('exit', (code) => reject(new Error('the server exited with ' + code + ': ' + output)));
  });
  api = ApiClient.fromKubeconfig(join(dataDir, 'kubeconfig'));
});

test.after.always(async () => {
  api?.close();
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** A typed client of \`plural\` in the namespace default. */
function client(kind: string, plural: string): TypedStatusClient<Item> {
  return new TypedStatusClient<Item>(api, { group, version, kind, plural, namespaced: true }, 'default');
}

/**
 * The first \`n\` events of a watch from \`resourceVersion\` (then it is closed) as type, name, resourceVersion; fewer when
 * the server ends the watch first (after 10 seconds).
 */
async function watched(items: TypedStatusClient<Item>, resourceVersion: string, n: number): Promise<string[][]> {
  const events: string[][] = [];
  for await (const e of items.watch({ resourceVersion, timeoutSeconds: 10 })) {
    events.push([e.type, e.object.metadata?.name ?? '', e.object.metadata?.resourceVersion ?? '']);
    if (events.length === n) break;
  }
  return events;
}

/** The Status code a request is refused with. */
async function refusedWith(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await request;
  } catch (err) {
    if (err instanceof ApiError) return { code: err.status.code!, message: err.status.message ?? '' };
    throw err;
  }
  throw new Error('the request succeeded');
}

for (const { kind, plural } of kinds) {
  const path = '/apis/' + group + '/' + version + '/namespaces/default/' + plural;

  test.serial(kind + ': create (defaulted and labelled by the admission stub), get, list, delete', async (t) => {
    const created = await api.request<KubeObject & { spec: { size: number } }>({
      method: 'POST',
      path,
      body: { apiVersion: group + '/' + version, kind, metadata: { name: 'first' }, spec: { message: 'hello' } },
    });
    t.is(created.spec.size, 1);
    t.is(created.metadata?.labels?.[admittedByLabel], '${m.name}');
    const got = await api.request<KubeObject>({ method: 'GET', path: path + '/first' });
    t.is(got.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const list = await api.request<{ kind: string; items: KubeObject[] }>({ method: 'GET', path });
    t.is(list.kind, kind + 'List');
    t.deepEqual(
      list.items.map((o) => o.metadata?.name),
      ['first'],
    );
    await api.request({ method: 'DELETE', path: path + '/first' });
    t.is((await refusedWith(api.request({ method: 'GET', path: path + '/first' }))).code, 404);
  });

  test.serial(kind + ': the schema and the admission stub refuse invalid objects (422)', async (t) => {
    const object = (name: string, spec: object) => ({ apiVersion: group + '/' + version, kind, metadata: { name }, spec });
    const tooBig = await refusedWith(api.request({ method: 'POST', path, body: object('too-big', { message: 'hello', size: 101 }) }));
    t.is(tooBig.code, 422);
    t.regex(tooBig.message, /spec\\.size: Invalid value: 101: spec\\.size in body should be less than or equal to 100/);
    const forbidden = await refusedWith(api.request({ method: 'POST', path, body: object('forbidden', { message: 'forbidden' }) }));
    t.is(forbidden.code, 422);
    t.regex(forbidden.message, /spec\\.message: Forbidden: this message is not allowed/);
  });

  test.serial(kind + ': a watch sees creates, updates and deletes in order, at their resourceVersions, and resumes from one', async (t) => {
    const items = client(kind, plural);
    const from = (await items.list()).metadata.resourceVersion!;
    const live = watched(items, from, 3); // open while the object is created, changed and deleted
    const created = await items.create({ apiVersion: group + '/' + version, kind, metadata: { name: 'watched' }, spec: { message: 'hello' } });
    const updated = await items.patch('watched', { spec: { message: 'changed' } });
    const deleted = (await items.delete('watched')) as Item;
    const rv = (o: Item) => o.metadata!.resourceVersion!;
    t.true(Number(rv(deleted)) > Number(rv(updated)), 'a delete has a resourceVersion of its own');
    t.deepEqual(await live, [
      ['ADDED', 'watched', rv(created)],
      ['MODIFIED', 'watched', rv(updated)],
      ['DELETED', 'watched', rv(deleted)],
    ]);
    t.deepEqual(await watched(items, rv(created), 2), [
      ['MODIFIED', 'watched', rv(updated)],
      ['DELETED', 'watched', rv(deleted)],
    ]);
  });

  test.serial(kind + ': the status subresource writes only the status; writes of the object keep it', async (t) => {
    const items = client(kind, plural);
    const created = await items.create({ apiVersion: group + '/' + version, kind, metadata: { name: 'reported' }, spec: { message: 'hello' }, status: { phase: 'Ready' } });
    t.is(created.status, undefined, 'a create stores no status');
    const reported = await items.patchStatus('reported', { spec: { message: 'ignored' }, status: { phase: 'Ready', observedGeneration: 1 } });
    t.deepEqual(reported.status, { phase: 'Ready', observedGeneration: 1 });
    t.is(reported.spec.message, 'hello');
    const changed = await items.patch('reported', { spec: { message: 'changed' }, status: { phase: 'Failed' } });
    t.is(changed.spec.message, 'changed');
    t.deepEqual(changed.status, { phase: 'Ready', observedGeneration: 1 });
    t.is(changed.metadata?.generation, 2, 'generation counts spec changes');
    const invalid = await refusedWith(items.patchStatus('reported', { status: { phase: 'Lost' } }));
    t.is(invalid.code, 422);
    t.regex(invalid.message, /status\\.phase: Unsupported value: "Lost": supported values: "Pending", "Ready", "Failed"/);
    await items.delete('reported');
  });
}

test.serial(kinds[0]!.kind + ': a watch from before the last 1,000 changes is 410 Gone (too old resource version): list again', async (t) => {
  const { kind, plural } = kinds[0]!;
  const items = client(kind, plural);
  const from = (await items.list()).metadata.resourceVersion!;
  const created = await items.create({ apiVersion: group + '/' + version, kind, metadata: { name: 'busy' }, spec: { message: 'hello', size: 0 } });
  for (let size = 1; size <= 1000; size++) await items.patch('busy', { spec: { size: size % 100 } });
  // the 1,000 changes kept are those after the create: a watch resumes from its resourceVersion, not from before
  t.deepEqual((await watched(items, created.metadata!.resourceVersion!, 1))[0]?.slice(0, 2), ['MODIFIED', 'busy']);
  const gone = await refusedWith(watched(items, from, 1));
  t.is(gone.code, 410);
  t.is(gone.message, 'too old resource version: ' + from + ' (' + created.metadata!.resourceVersion + ')');
  await items.delete('busy');
});

test.serial(kinds[0]!.kind + ': an update another write overtook while it was admitted is made again on the new object, as in kube', async (t) => {
  const { kind, plural } = kinds[0]!;
  const db = openDatabase(join(dataDir, 'overtaken.db'));
  const storage = sqliteStorage(db, group, plural);
  const ctx: RestContext = { namespace: 'default', name: 'overtaken', user: { username: 'test', groups: [] }, signal: new AbortController().signal, dryRun: false };
  await storage.create!(ctx, { apiVersion: group + '/' + version, kind, metadata: { name: 'overtaken', namespace: 'default' }, spec: { message: 'hello', size: 0 } });
  const seen: string[] = [];
  const updated = await storage.update!(ctx, 'overtaken', async (old) => {
    seen.push(old.metadata!.resourceVersion!);
    // the first time, another write is stored while this one waits (as for an admission webhook's answer)
    if (seen.length === 1) await storage.update!(ctx, 'overtaken', async (o) => ({ ...o, spec: { ...(o as unknown as Item).spec, size: 5 } }));
    return { ...old, metadata: { ...old.metadata, labels: { overtaken: 'yes' } } };
  });
  t.is(seen.length, 2);
  t.like(updated as unknown as Item, { metadata: { labels: { overtaken: 'yes' } }, spec: { size: 5 } });
  db.close();
});

test.serial(kinds[0]!.kind + ': a watch from a resourceVersion not reached yet gets only the changes after it', async (t) => {
  const { kind, plural } = kinds[0]!;
  const items = client(kind, plural);
  const current = Number((await items.list()).metadata.resourceVersion);
  const live = watched(items, String(current + 2), 1); // the create and the first patch come before it
  const created = await items.create({ apiVersion: group + '/' + version, kind, metadata: { name: 'ahead' }, spec: { message: 'hello', size: 0 } });
  await items.patch('ahead', { spec: { size: 1 } });
  const last = await items.patch('ahead', { spec: { size: 2 } });
  t.is(Number(created.metadata!.resourceVersion), current + 1);
  t.deepEqual(await live, [['MODIFIED', 'ahead', last.metadata!.resourceVersion!]]);
  t.is(Number(last.metadata!.resourceVersion), current + 3);
  await items.delete('ahead');
});

test.serial('${m.info.plural}: computed when read, read-only', async (t) => {
  const path = '/apis/' + group + '/' + version + '/${m.info.plural}';
  const info = await api.request<KubeObject & { status: { uptimeSeconds: number; objects: Record<string, number> } }>({ method: 'GET', path: path + '/server' });
  t.true(info.status.uptimeSeconds >= 0);
  t.is(typeof info.status.objects, 'object');
  t.is((await refusedWith(api.request({ method: 'DELETE', path: path + '/server' }))).code, 405);
});
`;
}
