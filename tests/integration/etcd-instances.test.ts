/**
 * Two kapi instances on one etcd: what one writes, the other serves — watches, consistent reads, resourceVersions,
 * optimistic concurrency and CRDs — with no restart and no other channel between them than etcd.
 */
import test from 'ava';
import { Etcd3 } from 'etcd3';
import { useEtcd } from '../helpers/use-etcd.js';
import {
  createNamespace,
  createWidget,
  expectStatus,
  installWidgetsCrd,
  startTestServer,
  waitForServed,
  widgetsPath,
  type TestServer,
} from '../helpers/test-server.js';

const etcd = useEtcd();
let a: TestServer;
let b: TestServer;
let raw: Etcd3;

test.serial.before(async () => {
  const opts = { storage: 'etcd' as const, etcd: { endpoints: etcd().endpoints } };
  [a, b] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
  await installWidgetsCrd(a);
  await waitForServed(b, 'example.com', 'v1', 'widgets');
  raw = new Etcd3({ hosts: etcd().endpoints });
});

test.after.always(async () => {
  raw?.close();
  await Promise.all([a?.close(), b?.close()]);
});

test('a write through A is seen by a watch on B, with the same resourceVersion', async (t) => {
  const ns = await createNamespace(a, 'etcd-watch');
  const watch = await b.watch(`${widgetsPath(ns)}?watch=1`);
  try {
    t.is(watch.status, 200);
    const created = await createWidget(a, ns, 'w1');
    const added = await watch.next(5000);
    t.is(added.type, 'ADDED');
    t.is(added.object.metadata.name, 'w1');
    t.is(added.object.metadata.resourceVersion, created.metadata.resourceVersion);
    t.is(added.object.metadata.uid, created.metadata.uid);

    const patched = await a.request('PATCH', widgetsPath(ns, 'w1'), {
      body: { spec: { color: 'green' } },
      contentType: 'application/merge-patch+json',
    });
    const modified = await watch.next(5000);
    t.is(modified.type, 'MODIFIED');
    t.is(modified.object.spec.color, 'green');
    t.is(modified.object.metadata.resourceVersion, patched.body.metadata.resourceVersion);

    await a.request('DELETE', widgetsPath(ns, 'w1'));
    t.is((await watch.next(5000)).type, 'DELETED');
  } finally {
    watch.close();
  }
});

test('a consistent read on B right after a write on A sees it, promptly', async (t) => {
  const ns = await createNamespace(a, 'etcd-consistent');
  for (let i = 0; i < 10; i++) {
    const created = await createWidget(a, ns, `w${i}`);
    const started = Date.now();
    const list = await b.request('GET', widgetsPath(ns));
    t.is(list.status, 200);
    t.true(list.body.items.some((w: any) => w.metadata.name === `w${i}`), `list ${i} on B holds w${i}`);
    t.true(Number(list.body.metadata.resourceVersion) >= Number(created.metadata.resourceVersion));
    // The last write is a widget: B's widget cache gets it as an event. Now the last write is another resource's
    // (a namespace), so B's widget cache can only know it is current from the feed's progress.
    await createNamespace(a, `etcd-other-${i}`);
    const other = Date.now();
    const again = await b.request('GET', widgetsPath(ns));
    t.is(again.body.items.length, i + 1);
    t.log(`round ${i}: ${other - started} ms, then ${Date.now() - other} ms`);
    // Served from B's watch cache without waiting out its 3 s wait for a revision (and falling back to etcd).
    t.true(Date.now() - started < 1500, `round ${i} took ${Date.now() - started} ms`);
  }
  const got = await b.request('GET', widgetsPath(ns, 'w9'));
  t.is(got.status, 200);
});

test('resourceVersions agree between the instances', async (t) => {
  const ns = await createNamespace(a, 'etcd-rv');
  const created = await createWidget(b, ns, 'w1');
  const [fromA, fromB] = await Promise.all([a.request('GET', widgetsPath(ns, 'w1')), b.request('GET', widgetsPath(ns, 'w1'))]);
  t.is(fromA.body.metadata.resourceVersion, created.metadata.resourceVersion);
  t.is(fromB.body.metadata.resourceVersion, created.metadata.resourceVersion);
  t.is(fromA.body.metadata.uid, fromB.body.metadata.uid);
  // An exact read at the revision the other instance answered.
  const exact = await a.request('GET', `${widgetsPath(ns)}?resourceVersion=${created.metadata.resourceVersion}&resourceVersionMatch=Exact`);
  t.is(exact.status, 200);
  t.deepEqual(exact.body.items.map((w: any) => w.metadata.name), ['w1']);
  t.is(exact.body.metadata.resourceVersion, created.metadata.resourceVersion);
});

test('concurrent updates with the same resourceVersion through A and B: exactly one wins, the other gets 409', async (t) => {
  const ns = await createNamespace(a, 'etcd-occ');
  for (let i = 0; i < 5; i++) {
    const created = await createWidget(a, ns, `w${i}`);
    const update = (server: TestServer, color: string) =>
      server.request('PUT', widgetsPath(ns, `w${i}`), { body: { ...created, spec: { ...created.spec, color } } });
    const [ra, rb] = await Promise.all([update(a, 'from-a'), update(b, 'from-b')]);
    t.deepEqual([ra.status, rb.status].sort(), [200, 409], `round ${i}: ${ra.status} ${rb.status}`);
    const loser = ra.status === 409 ? ra : rb;
    expectStatus(t, loser, {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on widgets.example.com "w${i}": the object has been modified; please apply your changes to the latest version and try again`,
    });
    const winner = ra.status === 200 ? ra : rb;
    const stored = await b.request('GET', widgetsPath(ns, `w${i}`));
    t.is(stored.body.spec.color, winner.body.spec.color);
    t.is(stored.body.metadata.resourceVersion, winner.body.metadata.resourceVersion);
  }
});

test('a CRD created through A is served by B without a restart, and its deletion too', async (t) => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.org' },
    spec: {
      group: 'example.org',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
        },
      ],
    },
  };
  const res = await a.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
  t.is(res.status, 201);
  await waitForServed(b, 'example.org', 'v1', 'gadgets');
  const ns = await createNamespace(b, 'etcd-crd');
  const gadgets = `/apis/example.org/v1/namespaces/${ns}/gadgets`;
  const created = await b.request('POST', gadgets, {
    body: { apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { size: 3 } },
  });
  t.is(created.status, 201);
  const fromA = await a.request('GET', `${gadgets}/g1`);
  t.is(fromA.status, 200);
  t.is(fromA.body.spec.size, 3);
  const discovery = await b.request('GET', '/apis/example.org/v1');
  t.true(discovery.body.resources.some((r: any) => r.name === 'gadgets'));

  t.is((await b.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.org')).status, 200);
  await a.waitFor(async () => (await a.request('GET', gadgets)).status === 404, 15_000, 'A to stop serving gadgets');
  await b.waitFor(async () => (await b.request('GET', gadgets)).status === 404, 15_000, 'B to stop serving gadgets');
  t.pass();
});

test('objects live in etcd under /registry, in kube-apiserver layout, as JSON', async (t) => {
  const ns = await createNamespace(a, 'etcd-layout');
  const created = await createWidget(a, ns, 'w1');
  const res = await raw.kv.range({ key: Buffer.from(`/registry/example.com/widgets/${ns}/w1`) });
  t.is(res.kvs.length, 1);
  t.is(res.kvs[0]!.mod_revision, created.metadata.resourceVersion);
  const stored = JSON.parse(res.kvs[0]!.value.toString());
  t.is(stored.metadata.uid, created.metadata.uid);
  const namespace = await raw.kv.range({ key: Buffer.from(`/registry/namespaces/${ns}`) });
  t.is(namespace.kvs.length, 1);
});

test("an object beyond etcd's request size limit is refused with 413, and nothing is stored", async (t) => {
  const ns = await createNamespace(a, 'etcd-large');
  const body = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'huge' }, spec: { color: 'x'.repeat(2 * 1024 * 1024) } };
  const res = await a.request('POST', widgetsPath(ns), { body });
  expectStatus(t, res, { code: 413, reason: 'RequestEntityTooLarge' });
  t.is((await b.request('GET', widgetsPath(ns, 'huge'))).status, 404);
});

// Serial: it loads both servers, which the timing of the consistent-read test below must not share.
test.serial('30 clients patching one object through A and B at once, without a resourceVersion, never get 409', async (t) => {
  const ns = await createNamespace(a, 'etcd-patchers');
  await createWidget(a, ns, 'w1', { labels: {} });
  await b.waitFor(async () => (await b.request('GET', widgetsPath(ns, 'w1'))).status === 200);
  const clients = Array.from({ length: 30 }, async (_, i) => {
    const server = i % 2 ? a : b;
    const codes = [];
    for (let round = 0; round < 4; round++) {
      const res = await server.request('PATCH', widgetsPath(ns, 'w1'), {
        body: { metadata: { labels: { [`k${i}-${round}`]: 'v' } } },
        contentType: 'application/merge-patch+json',
      });
      codes.push(res.status);
    }
    return codes;
  });
  const codes = (await Promise.all(clients)).flat();
  t.deepEqual(codes, codes.map(() => 200));
  const labels = (await a.request('GET', widgetsPath(ns, 'w1'))).body.metadata.labels;
  t.is(Object.keys(labels).length, 120);
});
