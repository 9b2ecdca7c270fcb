/** Optimistic concurrency: resourceVersion preconditions on writes, and name uniqueness on create. */
import test from 'ava';
import { createNamespace, createWidget, expectStatus, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const modified =
  'Operation cannot be fulfilled on widgets.example.com "w1": the object has been modified; please apply your changes to the latest version and try again';

test('PUT with a stale resourceVersion is 409 Conflict and changes nothing', async (t) => {
  const ns = await createNamespace(server, 'occ');
  const created = await createWidget(server, ns, 'w1');
  const first = await server.request('PUT', widgetsPath(ns, 'w1'), { body: { ...created, spec: { color: 'blue' } } });
  t.is(first.status, 200);

  const stale = await server.request('PUT', widgetsPath(ns, 'w1'), { body: { ...created, spec: { color: 'green' } } });
  expectStatus(t, stale, { code: 409, reason: 'Conflict', message: modified });
  t.deepEqual(stale.body.details, { name: 'w1', group: 'example.com', kind: 'widgets' });

  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.spec.color, 'blue');
  t.is(get.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
});

test('a merge patch that pins a stale resourceVersion is 409 Conflict', async (t) => {
  const ns = await createNamespace(server, 'occ');
  const created = await createWidget(server, ns, 'w1');
  await server.request('PATCH', widgetsPath(ns, 'w1'), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), {
    body: { metadata: { resourceVersion: created.metadata.resourceVersion }, spec: { color: 'green' } },
    contentType: 'application/merge-patch+json',
  });
  expectStatus(t, res, { code: 409, reason: 'Conflict', message: modified });
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).body.spec.color, 'blue');
});

test('of two concurrent PUTs from the same resourceVersion exactly one wins', async (t) => {
  const ns = await createNamespace(server, 'occ');
  const created = await createWidget(server, ns, 'w1');
  const results = await Promise.all(
    ['blue', 'green', 'yellow', 'black'].map((color) => server.request('PUT', widgetsPath(ns, 'w1'), { body: { ...created, spec: { color } } })),
  );
  const codes = results.map((r) => r.status).sort();
  t.deepEqual(codes, [200, 409, 409, 409]);
  const winner = results.find((r) => r.status === 200)!;
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.spec.color, winner.body.spec.color);
  t.is(get.body.metadata.resourceVersion, winner.body.metadata.resourceVersion);
});

test('creating an object that exists is 409 AlreadyExists', async (t) => {
  const ns = await createNamespace(server, 'occ');
  const created = await createWidget(server, ns, 'w1');
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w1', { spec: { color: 'blue' } }) });
  expectStatus(t, res, { code: 409, reason: 'AlreadyExists', message: 'widgets.example.com "w1" already exists' });
  t.deepEqual(res.body.details, { name: 'w1', group: 'example.com', kind: 'widgets' });
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.metadata.uid, created.metadata.uid);
  t.is(get.body.spec.color, 'red');
});

test('of two concurrent creates of one name exactly one wins', async (t) => {
  const ns = await createNamespace(server, 'occ');
  const results = await Promise.all([1, 2, 3].map(() => server.request('POST', widgetsPath(ns), { body: widget('w1') })));
  t.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409]);
  t.is((await server.request('GET', widgetsPath(ns))).body.items.length, 1);
});

test('the same name in another namespace is a different object', async (t) => {
  const ns1 = await createNamespace(server, 'occ');
  const ns2 = await createNamespace(server, 'occ');
  const a = await createWidget(server, ns1, 'w1');
  const b = await createWidget(server, ns2, 'w1');
  t.not(a.metadata.uid, b.metadata.uid);
});

test('concurrent merge patches that pin no resourceVersion are all applied (retried on conflict)', async (t) => {
  const ns = await createNamespace(server, 'occ');
  await createWidget(server, ns, 'w1');
  const patches = Array.from({ length: 8 }, (_, i) =>
    server.request('PATCH', widgetsPath(ns, 'w1'), {
      body: { metadata: { annotations: { [`p${i}`]: 'x' } } },
      contentType: 'application/merge-patch+json',
    }),
  );
  t.deepEqual((await Promise.all(patches)).map((r) => r.status), Array(8).fill(200));
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.deepEqual(Object.keys(get.body.metadata.annotations).sort(), ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
});

test('30 concurrent clients patching one object without a resourceVersion all succeed (merge, JSON, strategic, apply)', async (t) => {
  const ns = await createNamespace(server, 'occ');
  // A label from the start: with none, there is no /metadata/labels (an empty map is not kept, as in kube), and a JSON
  // patch adding below it before any other patch made the map would fail with 422, as in kube.
  await createWidget(server, ns, 'w1', { labels: { base: 'v' } });
  // Each client patches 4 times in a row, so the writes keep overlapping.
  const patch = (i: number, round: number) => {
    const key = `k${i}-${round}`;
    switch (i % 4) {
      case 0:
        return server.request('PATCH', widgetsPath(ns, 'w1'), { body: { metadata: { labels: { [key]: 'v' } } }, contentType: 'application/merge-patch+json' });
      case 1:
        return server.request('PATCH', widgetsPath(ns, 'w1'), {
          body: [{ op: 'add', path: `/metadata/labels/${key}`, value: 'v' }],
          contentType: 'application/json-patch+json',
        });
      case 2:
        return server.request('PATCH', widgetsPath(ns, 'w1'), { body: { metadata: { labels: { [key]: 'v' } } }, contentType: 'application/strategic-merge-patch+json' });
      default:
        return server.request('PATCH', `${widgetsPath(ns, 'w1')}?fieldManager=m${i}`, {
          body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', labels: { [key]: 'v' } } },
          contentType: 'application/apply-patch+yaml',
        });
    }
  };
  const clients = Array.from({ length: 30 }, async (_, i) => {
    const answers = [];
    for (let round = 0; round < 4; round++) answers.push(await patch(i, round));
    return answers;
  });
  const results = (await Promise.all(clients)).flat();
  t.deepEqual(
    results.map((r) => r.status),
    results.map(() => 200),
    results.find((r) => r.status !== 200)?.text,
  );
  const labels = (await server.request('GET', widgetsPath(ns, 'w1'))).body.metadata.labels;
  // Every merge, JSON and strategic patch adds its label; an apply owns only the label of its last round.
  const expected = ['base', ...Array.from({ length: 30 }, (_, i) => (i % 4 === 3 ? [`k${i}-3`] : [0, 1, 2, 3].map((r) => `k${i}-${r}`))).flat()];
  t.deepEqual(Object.keys(labels).sort(), expected.sort());
});

test('PUT of an object deleted and recreated meanwhile is 409 Conflict on its UID, before validation', async (t) => {
  const ns = await createNamespace(server, 'occ');
  const old = await createWidget(server, ns, 'w1');
  await server.request('DELETE', widgetsPath(ns, 'w1'));
  const recreated = await createWidget(server, ns, 'w1');
  // An invalid spec too: the UID precondition is checked first, as kube's storage checks it before the update runs.
  const res = await server.request('PUT', widgetsPath(ns, 'w1'), {
    body: { ...old, metadata: { ...old.metadata, resourceVersion: recreated.metadata.resourceVersion }, spec: { replicas: 'many' } },
  });
  expectStatus(t, res, {
    code: 409,
    reason: 'Conflict',
    message:
      `Operation cannot be fulfilled on widgets.example.com "w1": StorageError: invalid object, Code: 4, Key: /registry/example.com/widgets/${ns}/w1, ` +
      `ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${old.metadata.uid}, UID in object meta: ${recreated.metadata.uid}`,
  });
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).body.metadata.uid, recreated.metadata.uid);
});
