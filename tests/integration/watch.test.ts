/** Watches: event streams of a collection, filtered watches, resourceVersion starts and timeouts. */
import test from 'ava';
import { createNamespace, createWidget, useTestServer, widgetsPath, type WatchEvent } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

function mergePatch(ns: string, name: string, body: unknown) {
  return server.request('PATCH', widgetsPath(ns, name), { body, contentType: 'application/merge-patch+json' });
}

function summary(e: WatchEvent): string {
  return `${e.type} ${e.object.metadata.name}`;
}

test('a collection watch streams ADDED, MODIFIED and DELETED as JSON lines', async (t) => {
  const ns = await createNamespace(server, 'watch');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1`);
  try {
    t.is(watch.status, 200);
    t.regex(watch.headers['content-type'] ?? '', /^application\/json/);

    const created = await createWidget(server, ns, 'w1');
    const added = await watch.next();
    t.is(added.type, 'ADDED');
    t.is(added.object.apiVersion, 'example.com/v1');
    t.is(added.object.kind, 'Widget');
    t.is(added.object.metadata.name, 'w1');
    t.is(added.object.metadata.resourceVersion, created.metadata.resourceVersion);

    const patched = await mergePatch(ns, 'w1', { spec: { color: 'blue' } });
    const modified = await watch.next();
    t.is(modified.type, 'MODIFIED');
    t.is(modified.object.spec.color, 'blue');
    t.is(modified.object.metadata.resourceVersion, patched.body.metadata.resourceVersion);

    await server.request('DELETE', widgetsPath(ns, 'w1'));
    const deleted = await watch.next();
    t.is(deleted.type, 'DELETED');
    t.is(deleted.object.metadata.name, 'w1');
    t.is(deleted.object.spec.color, 'blue');
    t.true(BigInt(deleted.object.metadata.resourceVersion) > BigInt(patched.body.metadata.resourceVersion));

    t.deepEqual(watch.events.map(summary), ['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
  } finally {
    watch.close();
  }
});

test('a watch without resourceVersion starts with ADDED events for what exists', async (t) => {
  const ns = await createNamespace(server, 'watch');
  await createWidget(server, ns, 'a');
  await createWidget(server, ns, 'b');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=true`);
  try {
    const first = [await watch.next(), await watch.next()].map(summary).sort();
    t.deepEqual(first, ['ADDED a', 'ADDED b']);
    await createWidget(server, ns, 'c');
    t.is(summary(await watch.next()), 'ADDED c');
  } finally {
    watch.close();
  }
});

test('a watch from a resourceVersion replays every later change', async (t) => {
  const ns = await createNamespace(server, 'watch');
  const created = await createWidget(server, ns, 'w1');
  await mergePatch(ns, 'w1', { spec: { color: 'blue' } });
  await createWidget(server, ns, 'w2');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&resourceVersion=${created.metadata.resourceVersion}`);
  try {
    const modified = await watch.next();
    t.is(summary(modified), 'MODIFIED w1');
    t.is(modified.object.spec.color, 'blue');
    t.is(summary(await watch.next()), 'ADDED w2');
  } finally {
    watch.close();
  }
});

test('a watch with fieldSelector=metadata.name=w1 only sees w1', async (t) => {
  const ns = await createNamespace(server, 'watch');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&fieldSelector=metadata.name%3Dw1`);
  try {
    await createWidget(server, ns, 'w2');
    await createWidget(server, ns, 'w1');
    await mergePatch(ns, 'w2', { spec: { color: 'blue' } });
    await mergePatch(ns, 'w1', { spec: { color: 'blue' } });
    await server.request('DELETE', widgetsPath(ns, 'w2'));
    await server.request('DELETE', widgetsPath(ns, 'w1'));
    const seen = [await watch.next(), await watch.next(), await watch.next()];
    t.deepEqual(seen.map(summary), ['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    // Nothing about w2 arrives afterwards either.
    await new Promise((r) => setTimeout(r, 200));
    t.deepEqual(watch.events.map(summary), ['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
  } finally {
    watch.close();
  }
});

test('a watch with a labelSelector sees objects enter and leave the selection', async (t) => {
  const ns = await createNamespace(server, 'watch');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&labelSelector=tier%3Dgold`);
  try {
    await createWidget(server, ns, 'w1');
    await mergePatch(ns, 'w1', { metadata: { labels: { tier: 'gold' } } });
    const entered = await watch.next();
    t.is(summary(entered), 'ADDED w1');
    await mergePatch(ns, 'w1', { metadata: { labels: { tier: 'silver' } } });
    const left = await watch.next();
    t.is(summary(left), 'DELETED w1');
  } finally {
    watch.close();
  }
});

test('a field-selected watch starts with the matching object and then sees only its changes', async (t) => {
  const ns = await createNamespace(server, 'watch');
  await createWidget(server, ns, 'w1');
  await createWidget(server, ns, 'w2');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&fieldSelector=metadata.name%3Dw2`);
  try {
    t.is(summary(await watch.next()), 'ADDED w2');
    await mergePatch(ns, 'w1', { spec: { color: 'blue' } });
    await mergePatch(ns, 'w2', { spec: { color: 'green' } });
    const next = await watch.next();
    t.is(summary(next), 'MODIFIED w2');
    t.is(next.object.spec.color, 'green');
  } finally {
    watch.close();
  }
});

test('a watch across all namespaces sees changes in each', async (t) => {
  const ns1 = await createNamespace(server, 'watch');
  const ns2 = await createNamespace(server, 'watch');
  const rv = (await server.request('GET', widgetsPath(ns1))).body.metadata.resourceVersion;
  const watch = await server.watch(`/apis/example.com/v1/widgets?watch=1&resourceVersion=${rv}`);
  try {
    await createWidget(server, ns1, 'a');
    await createWidget(server, ns2, 'b');
    const ours: string[] = [];
    while (ours.length < 2) {
      const e = await watch.next();
      if (e.object.metadata.namespace === ns1 || e.object.metadata.namespace === ns2) ours.push(`${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}`);
    }
    t.deepEqual(ours, [`ADDED ${ns1}/a`, `ADDED ${ns2}/b`]);
  } finally {
    watch.close();
  }
});

test('timeoutSeconds=1 ends the stream after about a second', async (t) => {
  const ns = await createNamespace(server, 'watch');
  const started = Date.now();
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&timeoutSeconds=1`);
  try {
    t.is(watch.status, 200);
    const timedOut = await Promise.race([watch.ended.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 5000))]);
    const elapsed = Date.now() - started;
    t.false(timedOut, 'the stream did not end within 5s');
    t.true(elapsed >= 900, `ended after ${elapsed}ms`);
    t.deepEqual(watch.events, []);
  } finally {
    watch.close();
  }
});

test('HEAD of a watch answers its headers at once and ends', async (t) => {
  const ns = await createNamespace(server, 'head');
  for (const path of [`${widgetsPath(ns)}?watch=true`, `/apis/example.com/v1/watch/namespaces/${ns}/widgets/w1`]) {
    const res = await server.request('HEAD', path);
    t.is(res.status, 200, path);
    t.is(res.headers['content-type'], 'application/json', path);
    t.is(res.text, '', path);
  }
});
