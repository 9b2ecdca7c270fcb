/**
 * Watch resourceVersion semantics (api-concepts "Semantics for watch", "410 Gone"): where a watch starts, what it
 * replays, history that is too old, future resourceVersions, scopes, option validation, and resuming a cut watch.
 */
import test from 'ava';
import {
  createNamespace,
  createWidget,
  expectStatus,
  installWidgetsCrd,
  startTestServer,
  useTestServer,
  widgetsPath,
  type WatchEvent,
  type WatchStream,
} from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const summary = (e: WatchEvent) => `${e.type} ${e.object?.metadata?.name}`;
const nsSummary = (e: WatchEvent) => `${e.type} ${e.object?.metadata?.namespace}/${e.object?.metadata?.name}`;
const rvOf = (obj: any): bigint => BigInt(obj.metadata.resourceVersion);

function patchColor(ns: string, name: string, color: string) {
  return server.request('PATCH', widgetsPath(ns, name), { body: { spec: { color } }, contentType: 'application/merge-patch+json' });
}

async function listRv(ns: string): Promise<string> {
  return (await server.request('GET', widgetsPath(ns))).body.metadata.resourceVersion;
}

/** The next `count` events, skipping bookmarks. */
async function take(watch: WatchStream, count: number, timeoutMs = 5000): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  while (out.length < count) {
    const e = await watch.next(timeoutMs);
    if (e.type !== 'BOOKMARK') out.push(e);
  }
  return out;
}

/** Events (no bookmarks) that arrived within `ms` more. */
async function quietFor(watch: WatchStream, ms = 300): Promise<WatchEvent[]> {
  const before = watch.events.length;
  await sleep(ms);
  return watch.events.slice(before).filter((e) => e.type !== 'BOOKMARK');
}

for (const [label, query] of [
  ['unset', ''],
  ['"0"', '&resourceVersion=0'],
] as const) {
  test(`watch with resourceVersion ${label}: ADDED for what exists, then live changes`, async (t) => {
    const ns = await createNamespace(server, 'wrv');
    await createWidget(server, ns, 'a');
    await createWidget(server, ns, 'b');
    if (query) await server.waitFor(async () => (await server.request('GET', `${widgetsPath(ns)}?resourceVersion=0`)).body.items?.length === 2, 5000);
    const watch = await server.watch(`${widgetsPath(ns)}?watch=1${query}`);
    try {
      t.is(watch.status, 200);
      t.deepEqual((await take(watch, 2)).map(summary).sort(), ['ADDED a', 'ADDED b']);
      await patchColor(ns, 'a', 'blue');
      await createWidget(server, ns, 'c');
      t.deepEqual((await take(watch, 2)).map(summary), ['MODIFIED a', 'ADDED c']);
      t.deepEqual(await quietFor(watch), []);
    } finally {
      watch.close();
    }
  });
}

test('watch from resourceVersion=N: no initial events, exactly the changes after N, in order', async (t) => {
  const ns = await createNamespace(server, 'wrv');
  const a = await createWidget(server, ns, 'a');
  const n = a.metadata.resourceVersion;
  const writes: { summary: string; rv?: string }[] = [];
  const rec = (s: string, res: any) => writes.push({ summary: s, rv: s.startsWith('DELETED') ? undefined : res.metadata.resourceVersion });
  rec('MODIFIED a', (await patchColor(ns, 'a', 'blue')).body);
  rec('ADDED b', await createWidget(server, ns, 'b'));
  rec('MODIFIED b', (await patchColor(ns, 'b', 'green')).body);
  rec('DELETED a', (await server.request('DELETE', widgetsPath(ns, 'a'))).body);
  rec('ADDED c', await createWidget(server, ns, 'c'));
  rec('DELETED b', (await server.request('DELETE', widgetsPath(ns, 'b'))).body);

  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&resourceVersion=${n}`);
  try {
    t.is(watch.status, 200);
    const events = await take(watch, writes.length);
    t.deepEqual(events.map(summary), writes.map((w) => w.summary));
    events.forEach((e, i) => {
      if (writes[i]!.rv) t.is(e.object.metadata.resourceVersion, writes[i]!.rv, `event ${i} resourceVersion`);
    });
    const rvs = events.map((e) => rvOf(e.object));
    t.true(rvs.every((rv, i) => rv > BigInt(n) && (i === 0 || rv > rvs[i - 1]!)), `strictly increasing after N: ${rvs.join(', ')}`);
    t.deepEqual(await quietFor(watch), [], 'nothing more (no duplicates)');
  } finally {
    watch.close();
  }
});

test('watch from a resourceVersion older than the cache history: 200, one ERROR 410 Expired, end of stream', async (t) => {
  const other = await startTestServer({ config: { watchCache: { historyMaxEvents: 5 } } });
  try {
    await installWidgetsCrd(other);
    const ns = await createNamespace(other, 'wold');
    const first = await createWidget(other, ns, 'w00');
    for (let i = 1; i < 20; i++) await createWidget(other, ns, `w${String(i).padStart(2, '0')}`);

    const watch = await other.watch(`${widgetsPath(ns)}?watch=1&resourceVersion=${first.metadata.resourceVersion}`);
    try {
      t.is(watch.status, 200);
      const e = await watch.next(5000);
      t.is(e.type, 'ERROR');
      t.like(e.object, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' });
      t.true(String(e.object?.message).startsWith('too old resource version: '), `message: ${e.object?.message}`);
      const ended = await Promise.race([watch.ended.then(() => true), sleep(3000).then(() => false)]);
      t.true(ended, 'the stream ends after the ERROR event');
      t.is(watch.events.length, 1, `events: ${watch.events.map((x) => x.type).join(', ')}`);
    } finally {
      watch.close();
    }
  } finally {
    await other.close();
  }
});

// Serial: no concurrent writes move the revision between reading it and writing.
test.serial('watch from a future resourceVersion stays open and delivers only changes after it', async (t) => {
  const ns = await createNamespace(server, 'wfut');
  const current = BigInt(await listRv(ns));
  const future = current + 5n;
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&resourceVersion=${future}`);
  try {
    t.is(watch.status, 200);
    const created = [];
    for (let i = 1; i <= 8; i++) created.push(await createWidget(server, ns, `f${i}`));
    const expected = created.filter((o) => rvOf(o) > future).map((o) => `ADDED ${o.metadata.name}`);
    t.true(expected.length > 0 && expected.length < created.length, `writes on both sides of ${future}`);
    const events = await take(watch, expected.length);
    t.deepEqual(events.map(summary), expected);
    t.deepEqual(await quietFor(watch), []);
    t.false(watch.events.some((e) => e.type === 'ERROR'));
  } finally {
    watch.close();
  }
});

test('watch scopes: one namespace, all namespaces, one object by fieldSelector', async (t) => {
  const ns1 = await createNamespace(server, 'wscope');
  const ns2 = await createNamespace(server, 'wscope');
  const n = await listRv(ns1);
  const ours = (e: WatchEvent) => e.object?.metadata?.namespace === ns1 || e.object?.metadata?.namespace === ns2;
  const paths = {
    namespace: `${widgetsPath(ns1)}?watch=1&resourceVersion=${n}`,
    all: `/apis/example.com/v1/widgets?watch=1&resourceVersion=${n}`,
    allByName: `/apis/example.com/v1/widgets?watch=1&resourceVersion=${n}&fieldSelector=metadata.name%3Dw1`,
    nsByName: `${widgetsPath(ns1)}?watch=1&resourceVersion=${n}&fieldSelector=metadata.name%3Dw1`,
    legacyPath: `/apis/example.com/v1/watch/namespaces/${ns1}/widgets/w1?resourceVersion=${n}`,
  };
  const watches = Object.fromEntries(await Promise.all(Object.entries(paths).map(async ([k, p]) => [k, await server.watch(p)] as const)));
  try {
    for (const [k, w] of Object.entries(watches)) t.is(w.status, 200, k);
    await createWidget(server, ns1, 'w1');
    await createWidget(server, ns2, 'w1');
    await createWidget(server, ns1, 'w2');
    await patchColor(ns1, 'w1', 'blue');
    await server.request('DELETE', widgetsPath(ns2, 'w1'));

    const expected: Record<string, string[]> = {
      namespace: [`ADDED ${ns1}/w1`, `ADDED ${ns1}/w2`, `MODIFIED ${ns1}/w1`],
      all: [`ADDED ${ns1}/w1`, `ADDED ${ns2}/w1`, `ADDED ${ns1}/w2`, `MODIFIED ${ns1}/w1`, `DELETED ${ns2}/w1`],
      allByName: [`ADDED ${ns1}/w1`, `ADDED ${ns2}/w1`, `MODIFIED ${ns1}/w1`, `DELETED ${ns2}/w1`],
      nsByName: [`ADDED ${ns1}/w1`, `MODIFIED ${ns1}/w1`],
      legacyPath: [`ADDED ${ns1}/w1`, `MODIFIED ${ns1}/w1`],
    };
    const seen = (k: string) => watches[k]!.events.filter((e) => e.type !== 'BOOKMARK' && ours(e)).map(nsSummary);
    await server
      .waitFor(() => Object.keys(expected).every((k) => seen(k).length >= expected[k]!.length), 5000, 'all watches to see their events')
      .catch(() => undefined);
    await sleep(200);
    for (const k of Object.keys(expected)) t.deepEqual(seen(k), expected[k], k);
  } finally {
    for (const w of Object.values(watches)) w.close();
  }
});

const invalidWatches: [string, string][] = [
  ['sendInitialEvents=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
  ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
  [
    'sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1',
    'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
  ],
];

for (const [query, error] of invalidWatches) {
  test(`watch with ${query} is 422 ListOptions invalid`, async (t) => {
    const ns = await createNamespace(server, 'wbad');
    // timeoutSeconds bounds the request should the server start a stream instead.
    const res = await server.request('GET', `${widgetsPath(ns)}?watch=1&${query}&timeoutSeconds=2`);
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    const message: string = res.body?.message ?? '';
    t.true(message.startsWith('ListOptions.meta.k8s.io "" is invalid: '), message);
    t.true(message.includes(error), `message ${JSON.stringify(message)} should include ${JSON.stringify(error)}`);
    t.is(res.body?.details?.kind, 'ListOptions');
    t.is(res.body?.details?.group, 'meta.k8s.io');
    t.true((res.body?.details?.causes ?? []).some((c: any) => c.field === 'resourceVersionMatch'), JSON.stringify(res.body?.details?.causes));
  });
}

test('a cut watch resumed from the last event’s resourceVersion sees exactly the changes made meanwhile', async (t) => {
  const ns = await createNamespace(server, 'wcut');
  const first = await server.watch(`${widgetsPath(ns)}?watch=1`);
  let last: WatchEvent;
  try {
    await createWidget(server, ns, 'a');
    await createWidget(server, ns, 'b');
    const events = await take(first, 2);
    t.deepEqual(events.map(summary), ['ADDED a', 'ADDED b']);
    last = events[1]!;
  } finally {
    first.close();
  }
  await first.ended;

  await patchColor(ns, 'a', 'blue');
  await createWidget(server, ns, 'c');
  await server.request('DELETE', widgetsPath(ns, 'b'));

  const resumed = await server.watch(`${widgetsPath(ns)}?watch=1&resourceVersion=${last.object.metadata.resourceVersion}`);
  try {
    t.is(resumed.status, 200);
    const events = await take(resumed, 3);
    t.deepEqual(events.map(summary), ['MODIFIED a', 'ADDED c', 'DELETED b']);
    t.is(events[0]!.object.spec.color, 'blue');
    t.deepEqual(await quietFor(resumed), []);
  } finally {
    resumed.close();
  }
});
