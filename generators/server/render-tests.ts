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
import { ApiClient, ApiError, type KubeObject } from 'kapi';
import { admittedByLabel } from '../src/admission.js';
import { group, version } from '../src/crds.js';

const kinds = [
${kinds}];
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
}

test.serial('${m.info.plural}: computed when read, read-only', async (t) => {
  const path = '/apis/' + group + '/' + version + '/${m.info.plural}';
  const info = await api.request<KubeObject & { status: { uptimeSeconds: number; objects: Record<string, number> } }>({ method: 'GET', path: path + '/server' });
  t.true(info.status.uptimeSeconds >= 0);
  t.is(typeof info.status.objects, 'object');
  t.is((await refusedWith(api.request({ method: 'DELETE', path: path + '/server' }))).code, 405);
});
`;
}
