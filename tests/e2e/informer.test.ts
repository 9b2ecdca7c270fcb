// @kubernetes/client-node informers (list + watch) against an in-process server: churn, and resuming after a cut
// connection; and a raw watch resumed from the last resourceVersion it received.
import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { createNamespace, createWidget, useTestServer, widget, widgetsPath, type WatchEvent } from '../helpers/test-server.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { openRawWatch } from '../helpers/https-watch.js';

const server = useTestServer({ widgetsCrd: true });

const proxies = new Set<TcpProxy>();
const informers = new Set<TrackedInformer>();
test.after.always(async () => {
  for (const inf of informers) await inf.stop();
  for (const p of proxies) await p.close();
});

type Widget = k8s.KubernetesObject & { spec?: { color?: string; replicas?: number } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function serverPort(): number {
  return Number(new URL(server.url).port);
}

async function proxy(): Promise<TcpProxy> {
  const p = await startTcpProxy(serverPort());
  proxies.add(p);
  return p;
}

/** A KubeConfig for `url` (the server or a proxy to it) with the server's CA and admin token. */
function kubeConfig(url: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kapi', server: url, caData: Buffer.from(server.ca).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'admin', token: server.token }],
    contexts: [{ name: 'kapi', cluster: 'kapi', user: 'admin' }],
    currentContext: 'kapi',
  });
  return kc;
}

interface Seen {
  name: string;
  rv: string;
}

interface TrackedInformer {
  informer: k8s.Informer<Widget> & k8s.ObjectCache<Widget>;
  adds: Seen[];
  updates: Seen[];
  deletes: Seen[];
  errors: unknown[];
  connects: number;
  /** How often the error callback restarted the informer with `start()`. */
  restarts: number;
  stop(): Promise<void>;
}

/**
 * Starts an informer on the widgets of `namespace` through `url`, recording its callbacks. On 'error' it restarts
 * itself with `informer.start()` after 200 ms, as client-node's informer example does: its ListWatch does not
 * restart after a watch that ended with an error.
 */
async function startInformer(url: string, namespace: string): Promise<TrackedInformer> {
  const kc = kubeConfig(url);
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const list = () =>
    api.listNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace, plural: 'widgets' }) as Promise<k8s.KubernetesListObject<Widget>>;
  const informer = k8s.makeInformer<Widget>(kc, `/apis/example.com/v1/namespaces/${namespace}/widgets`, list);
  const seen = (o: Widget): Seen => ({ name: o.metadata!.name!, rv: o.metadata!.resourceVersion! });
  let stopped = false;
  const tracked: TrackedInformer = {
    informer,
    adds: [],
    updates: [],
    deletes: [],
    errors: [],
    connects: 0,
    restarts: 0,
    async stop() {
      stopped = true;
      informers.delete(tracked);
      await informer.stop();
    },
  };
  informer.on('add', (o) => tracked.adds.push(seen(o)));
  informer.on('update', (o) => tracked.updates.push(seen(o)));
  informer.on('delete', (o) => tracked.deletes.push(seen(o)));
  informer.on('connect', () => tracked.connects++);
  informer.on('error', (err) => {
    if (stopped) return;
    tracked.errors.push(err);
    setTimeout(() => {
      if (stopped) return;
      tracked.restarts++;
      void informer.start();
    }, 200);
  });
  informers.add(tracked);
  await informer.start();
  return tracked;
}

/** `name@resourceVersion` of each object, sorted. */
function keys(objects: readonly Widget[]): string[] {
  return objects.map((o) => `${o.metadata!.name}@${o.metadata!.resourceVersion}`).sort();
}

async function freshList(namespace: string): Promise<string[]> {
  const res = await server.request('GET', widgetsPath(namespace));
  if (res.status !== 200) throw new Error(`list ${namespace}: ${res.status} ${res.text}`);
  return keys(res.body.items);
}

/** Polls until the informer's cache equals a fresh list (or `timeoutMs` passed); returns both. */
async function converge(inf: TrackedInformer, namespace: string, timeoutMs = 15_000): Promise<{ cache: string[]; fresh: string[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const fresh = await freshList(namespace);
    const cache = keys(inf.informer.list());
    if (JSON.stringify(cache) === JSON.stringify(fresh) || Date.now() > deadline) return { cache, fresh };
    await sleep(100);
  }
}

function mergePatch(namespace: string, name: string, body: unknown) {
  return server.request('PATCH', widgetsPath(namespace, name), { body, contentType: 'application/merge-patch+json' });
}

function describeInformer(inf: TrackedInformer): string {
  const counts = new Map<string, number>();
  for (const e of inf.errors) {
    const text = e instanceof Error ? `${e.name}: ${e.message.replace(/request to \S+ failed, reason: /, '')}` : JSON.stringify(e);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const errors = [...counts].map(([text, n]) => (n > 1 ? `${n}× ${text}` : text));
  return `adds ${inf.adds.length}, updates ${inf.updates.length}, deletes ${inf.deletes.length}, connects ${inf.connects}, restarts ${inf.restarts}, errors [${errors.join('; ')}]`;
}

const byName = (s: Seen[]) => s.map((x) => x.name).sort();

test('under 4 concurrent writers the informer cache ends equal to a fresh list and every change has its callback', async (t) => {
  const ns = await createNamespace(server, 'churn');
  const pool = Array.from({ length: 24 }, (_, i) => `n${i}`);
  const initial = pool.slice(0, 8);
  for (const name of initial) await createWidget(server, ns, name);
  const inf = await startInformer(server.url, ns);
  try {
    const created: string[] = [];
    const patched: Seen[] = [];
    const deleted: string[] = [];
    let replicas = 100; // widgets are created with replicas 1: every patch below is a real change (a no-op patch has no event)
    let failures = 0;
    const writer = async () => {
      for (let k = 0; k < 38; k++) {
        const name = pool[Math.floor(Math.random() * pool.length)]!;
        const dice = Math.random();
        if (dice < 0.4) {
          const res = await server.request('POST', widgetsPath(ns), { body: widget(name, { labels: { w: 'x' } }) });
          if (res.status === 201) created.push(name);
          else if (res.status !== 409) failures++;
        } else if (dice < 0.75) {
          const res = await mergePatch(ns, name, { spec: { replicas: ++replicas } });
          if (res.status === 200) patched.push({ name, rv: res.body.metadata.resourceVersion });
          else if (res.status !== 404) failures++;
        } else {
          const res = await server.request('DELETE', widgetsPath(ns, name));
          if (res.status === 200) deleted.push(name);
          else if (res.status !== 404) failures++;
        }
        if (Math.random() < 0.3) await sleep(Math.random() * 5);
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    t.is(failures, 0, 'every write answered 2xx, or 409 (create of an existing name) / 404 (a gone name)');
    t.true(created.length + patched.length + deleted.length > 60, `enough writes succeeded: ${created.length} creates, ${patched.length} patches, ${deleted.length} deletes`);

    const { cache, fresh } = await converge(inf, ns);
    t.deepEqual(cache, fresh, `informer cache (name@rv) vs a fresh LIST; ${describeInformer(inf)}`);
    t.deepEqual(inf.errors, [], describeInformer(inf));
    t.deepEqual(byName(inf.deletes), [...deleted].sort(), `one delete callback per successful DELETE; ${describeInformer(inf)}`);
    t.deepEqual(byName(inf.adds), [...initial, ...created].sort(), `one add per listed widget and per successful POST; ${describeInformer(inf)}`);
    t.deepEqual(
      inf.updates.map((s) => `${s.name}@${s.rv}`).sort(),
      patched.map((s) => `${s.name}@${s.rv}`).sort(),
      `one update per successful PATCH, with its resourceVersion; ${describeInformer(inf)}`,
    );
  } finally {
    await inf.stop();
  }
});

test('an informer whose watch connection is cut catches up with the create, update and delete made meanwhile', async (t) => {
  const ns = await createNamespace(server, 'cut');
  for (const name of ['r1', 'r2', 'r3']) await createWidget(server, ns, name);
  const p = await proxy();
  const inf = await startInformer(p.url, ns);
  try {
    const synced = await converge(inf, ns);
    t.deepEqual(synced.cache, synced.fresh, `initial sync; ${describeInformer(inf)}`);

    const before = await createWidget(server, ns, 'r4');
    const live = await converge(inf, ns);
    t.deepEqual(live.cache, live.fresh, `a create before the cut; ${describeInformer(inf)}`);
    t.true(inf.adds.some((s) => s.name === 'r4' && s.rv === before.metadata.resourceVersion), describeInformer(inf));

    p.setBlocked(true);
    const cut = p.cutAll();
    t.true(cut >= 1, `the informer's watch went through the proxy (cut ${cut} connections)`);

    const r5 = await createWidget(server, ns, 'r5');
    const r1 = await mergePatch(ns, 'r1', { spec: { color: 'purple' } });
    t.is(r1.status, 200, r1.text);
    const r2 = await server.request('DELETE', widgetsPath(ns, 'r2'));
    t.is(r2.status, 200, r2.text);
    await sleep(600); // reconnects fail while the proxy refuses connections
    p.setBlocked(false);

    const { cache, fresh } = await converge(inf, ns);
    t.deepEqual(cache, fresh, `after the cut: informer cache vs a fresh LIST; ${describeInformer(inf)}`);
    t.true(inf.adds.some((s) => s.name === 'r5' && s.rv === r5.metadata.resourceVersion), `add r5; ${describeInformer(inf)}`);
    t.true(inf.updates.some((s) => s.name === 'r1' && s.rv === r1.body.metadata.resourceVersion), `update r1; ${describeInformer(inf)}`);
    t.deepEqual(byName(inf.deletes), ['r2'], `delete r2; ${describeInformer(inf)}`);
    t.is(inf.informer.get('r1', ns)?.spec?.color, 'purple');
    t.is(inf.informer.get('r2', ns), undefined);
    t.log(`client-node informer after the cut: ${describeInformer(inf)}`);
  } finally {
    await inf.stop();
  }
});

function summary(e: WatchEvent): string {
  return `${e.type} ${e.object?.metadata?.name}@${e.object?.metadata?.resourceVersion}`;
}

test('a raw watch re-opened after a cut from the last received resourceVersion gets exactly the 3 changes made meanwhile, in order', async (t) => {
  const ns = await createNamespace(server, 'rawcut');
  await createWidget(server, ns, 'x1');
  await createWidget(server, ns, 'x2');
  const listed = await server.request('GET', widgetsPath(ns));
  t.is(listed.status, 200, listed.text);
  const listRv: string = listed.body.metadata.resourceVersion;

  const p = await proxy();
  const target = { port: p.port, ca: server.ca, token: server.token };
  const first = await openRawWatch(target, `${widgetsPath(ns)}?watch=1&resourceVersion=${listRv}`);
  t.is(first.status, 200);
  const x3 = await createWidget(server, ns, 'x3');
  const x1 = await mergePatch(ns, 'x1', { spec: { color: 'blue' } });
  const got = [await first.next(), await first.next()];
  t.deepEqual(got.map(summary), [`ADDED x3@${x3.metadata.resourceVersion}`, `MODIFIED x1@${x1.body.metadata.resourceVersion}`]);
  const lastRv: string = got[1]!.object.metadata.resourceVersion;

  t.true(p.cutAll() >= 1, 'the watch went through the proxy');
  await Promise.race([first.ended, sleep(5000).then(() => t.fail('the cut watch did not end within 5 s'))]);

  const x4 = await createWidget(server, ns, 'x4');
  const x2 = await mergePatch(ns, 'x2', { spec: { replicas: 9 } });
  t.is(x2.status, 200, x2.text);
  const del = await server.request('DELETE', widgetsPath(ns, 'x3'));
  t.is(del.status, 200, del.text);

  const second = await openRawWatch(target, `${widgetsPath(ns)}?watch=1&resourceVersion=${lastRv}`);
  try {
    t.is(second.status, 200);
    const events = [await second.next(), await second.next(), await second.next()];
    const types = events.map((e) => `${e.type} ${e.object?.metadata?.name}`);
    t.deepEqual(types, ['ADDED x4', 'MODIFIED x2', 'DELETED x3'], events.map(summary).join(', '));
    t.is(events[0]!.object.metadata.resourceVersion, x4.metadata.resourceVersion, 'ADDED x4 has the create response resourceVersion');
    t.is(events[1]!.object.metadata.resourceVersion, x2.body.metadata.resourceVersion, 'MODIFIED x2 has the patch response resourceVersion');
    t.is(events[1]!.object.spec.replicas, 9);
    const deletedRv = BigInt(events[2]!.object.metadata.resourceVersion);
    t.true(deletedRv > BigInt(x2.body.metadata.resourceVersion), 'DELETED comes with a newer resourceVersion');
    await sleep(500);
    t.deepEqual(second.events.map(summary), events.map(summary), 'nothing more after the 3 changes');
  } finally {
    second.close();
    first.close();
  }
});

test('the object a DELETE returns carries the resourceVersion of its DELETED watch event (as kube-apiserver)', async (t) => {
  // kube-apiserver's etcd3 store decodes the deleted object with the delete's revision (store.go conditionalDelete),
  // so a client can resume a watch from the DELETE response.
  const ns = await createNamespace(server, 'delrv');
  const created = await createWidget(server, ns, 'd1');
  const watch = await openRawWatch({ port: serverPort(), ca: server.ca, token: server.token }, `${widgetsPath(ns)}?watch=1&resourceVersion=${created.metadata.resourceVersion}`);
  try {
    const del = await server.request('DELETE', widgetsPath(ns, 'd1'));
    t.is(del.status, 200, del.text);
    const event = await watch.next();
    t.is(`${event!.type} ${event!.object.metadata.name}`, 'DELETED d1');
    t.not(event!.object.metadata.resourceVersion, created.metadata.resourceVersion, 'the deletion has its own resourceVersion');
    t.is(del.body.metadata?.resourceVersion, event!.object.metadata.resourceVersion, `DELETE response rv vs DELETED event rv (created at ${created.metadata.resourceVersion})`);
  } finally {
    watch.close();
  }
});
