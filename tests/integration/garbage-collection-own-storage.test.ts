/**
 * Garbage collection across a resource served from its own RestStorage (with list and watch): its objects are
 * followed through the storage's watch and deleted through the storage, as dependents of widgets and as owners of them.
 */
import test from 'ava';
import { errors, resourceModule, type KubeObject, type RestContext, type RestStorage, type RestWatchEvent } from '../../index.js';
import { createNamespace, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

const group = 'gc.example.com';
const gadgets = new Map<string, KubeObject>();
const changes: RestWatchEvent[] = [];
const wakers = new Set<() => void>();
let revision = 0;

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

function record(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): KubeObject {
  const stored = { ...object, metadata: { ...object.metadata, resourceVersion: String(++revision) } };
  const key = keyOf(stored.metadata.namespace ?? '', stored.metadata.name!);
  if (type === 'DELETED') gadgets.delete(key);
  else gadgets.set(key, stored);
  changes.push({ type, object: stored });
  for (const wake of wakers) wake();
  return stored;
}

/** An in-memory storage whose watch replays the changes after a resourceVersion, then follows them. */
const storage: RestStorage = {
  async get(ctx, name) {
    const found = gadgets.get(keyOf(ctx.namespace, name));
    if (!found) throw errors.notFound({ group, resource: 'things', name });
    return structuredClone(found);
  },
  async list(ctx) {
    const items = [...gadgets.values()].filter((g) => !ctx.namespace || g.metadata!.namespace === ctx.namespace);
    return { items: structuredClone(items), resourceVersion: String(revision) };
  },
  async create(ctx, object) {
    if (gadgets.has(keyOf(ctx.namespace, object.metadata!.name!))) throw errors.alreadyExists({ group, resource: 'things', name: object.metadata!.name! });
    return ctx.dryRun ? object : record('ADDED', object);
  },
  async update(ctx, name, update) {
    const next = await update(await storage.get!(ctx, name));
    return ctx.dryRun ? next : record('MODIFIED', next);
  },
  async delete(ctx, name, admit) {
    const old = await storage.get!(ctx, name);
    await admit(old);
    return ctx.dryRun ? old : record('DELETED', old);
  },
  async *watch(ctx: RestContext, options) {
    let after = Number(options.resourceVersion || revision);
    while (!ctx.signal.aborted) {
      const next = changes.find((e) => Number(e.object.metadata!.resourceVersion) > after);
      if (!next) {
        await new Promise<void>((resolve) => {
          const wake = () => (wakers.delete(wake), resolve());
          wakers.add(wake);
          ctx.signal.addEventListener('abort', wake, { once: true });
        });
        continue;
      }
      after = Number(next.object.metadata!.resourceVersion);
      if (!ctx.namespace || next.object.metadata!.namespace === ctx.namespace) yield structuredClone(next);
    }
  },
};

const server = useTestServer({
  widgetsCrd: true,
  storage: 'memory',
  modules: [resourceModule({ group, versions: ['v1'], kind: 'Thing', plural: 'things', scope: 'Namespaced', storage })],
});
const thingsPath = (ns: string, name = '') => `/apis/${group}/v1/namespaces/${ns}/things${name ? `/${name}` : ''}`;

const ownerRef = (o: any) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid });

async function create(path: string, body: any): Promise<any> {
  const res = await server.request('POST', path, { body });
  if (res.status !== 201) throw new Error(`creating ${body.metadata.name}: ${res.status} ${res.text}`);
  return res.body;
}

const gone = (path: string) => server.waitFor(async () => (await server.request('GET', path)).status === 404, 10_000, `${path} to be gone`);

test('a thing owned by a widget is deleted through its storage once the widget is gone', async (t) => {
  const ns = await createNamespace(server, 'gc-own');
  const owner = await create(widgetsPath(ns), widget('owner'));
  await create(thingsPath(ns), { apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name: 'owned', ownerReferences: [ownerRef(owner)] } });
  const free = await create(thingsPath(ns), { apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name: 'free' } });
  t.is((await server.request('DELETE', widgetsPath(ns, 'owner'))).status, 200);
  await gone(thingsPath(ns, 'owned'));
  t.is((await server.request('GET', thingsPath(ns, 'free'))).body.metadata.uid, free.metadata.uid);
});

test('a widget owned by a thing is deleted once the thing is, and an orphaning widget frees a thing', async (t) => {
  const ns = await createNamespace(server, 'gc-own');
  const thing = await create(thingsPath(ns), { apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name: 'owner' } });
  const w = widget('dep');
  await create(widgetsPath(ns), { ...w, metadata: { ...w.metadata, ownerReferences: [ownerRef(thing)] } });
  t.is((await server.request('DELETE', thingsPath(ns, 'owner'))).status, 200);
  await gone(widgetsPath(ns, 'dep'));

  const orphaning = await create(widgetsPath(ns), widget('orphaning'));
  await create(thingsPath(ns), { apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name: 'kept', ownerReferences: [ownerRef(orphaning)] } });
  t.is((await server.request('DELETE', `${widgetsPath(ns, 'orphaning')}?propagationPolicy=Orphan`)).status, 200);
  await gone(widgetsPath(ns, 'orphaning'));
  const kept = await server.request('GET', thingsPath(ns, 'kept'));
  t.is(kept.status, 200);
  t.is(kept.body.metadata.ownerReferences, undefined);
});
