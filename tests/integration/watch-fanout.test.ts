/** A wide watch fan-out: many watches of one collection, served in batches and slices that share their encodings. */
import test from 'ava';
import { createNamespace, createWidget, useTestServer, widgetsPath, type WatchEvent, type WatchStream } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

/** More watches than the watch cache serves per macrotask, and enough for it to gather events into batches. */
const watchCount = 300;
const writes = 40;

async function openWatches(path: string, count: number): Promise<WatchStream[]> {
  const watches: WatchStream[] = [];
  while (watches.length < count) {
    const batch = Math.min(50, count - watches.length);
    watches.push(...(await Promise.all(Array.from({ length: batch }, () => server.watch(path)))));
  }
  return watches;
}

const tierOf = (e: WatchEvent): string | undefined => e.object.metadata.labels?.tier;

/** What a watch of `tier=a` sees of a sequence of changes that starts with the widget at tier b. */
function selectedView(events: WatchEvent[]): string[] {
  const seen: string[] = [];
  let before: string | undefined = 'b';
  for (const e of events) {
    const now = tierOf(e);
    if (before === 'a' && now === 'a') seen.push(`MODIFIED ${e.object.metadata.resourceVersion}`);
    else if (now === 'a') seen.push(`ADDED ${e.object.metadata.resourceVersion}`);
    else if (before === 'a') seen.push(`DELETED ${e.object.metadata.resourceVersion}`);
    before = now;
  }
  return seen;
}

test(`${watchCount} watches of one collection each see every change of a burst of writes once and in order; a selecting watch sees its own view of them`, async (t) => {
  const ns = await createNamespace(server, 'fanout');
  const created = await createWidget(server, ns, 'w1', { labels: { tier: 'b' } });
  const from = `${widgetsPath(ns)}?watch=1&resourceVersion=${created.metadata.resourceVersion}`;
  const watches = await openWatches(from, watchCount);
  const selecting = await server.watch(`${from}&labelSelector=tier%3Da`);
  try {
    // All in flight together, so that changes reach the watch cache while it is fanning earlier ones out.
    const patched = await Promise.all(
      Array.from({ length: writes }, (_, i) =>
        server.request('PATCH', widgetsPath(ns, 'w1'), {
          body: { metadata: { labels: { tier: i % 2 ? 'a' : 'b' } }, spec: { replicas: i } },
          contentType: 'application/merge-patch+json',
        }),
      ),
    );
    t.deepEqual([...new Set(patched.map((r) => r.status))], [200]);
    const acknowledged = patched.map((r) => String(r.body.metadata.resourceVersion)).sort((a, b) => Number(a) - Number(b));
    await server.waitFor(() => watches.every((w) => w.events.length >= writes), 60_000, 'every watch to receive every change');

    const sequences = new Set(watches.map((w) => JSON.stringify(w.events.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`))));
    t.deepEqual([...sequences].map((s) => JSON.parse(s) as string[]), [acknowledged.map((rv) => `MODIFIED ${rv}`)]);

    const expected = selectedView(watches[0]!.events);
    t.true(expected.length > 0);
    await server.waitFor(() => selecting.events.length >= expected.length, 10_000, 'the selecting watch to see its changes');
    t.deepEqual(
      selecting.events.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`),
      expected,
    );
  } finally {
    for (const w of watches) w.close();
    selecting.close();
  }
});
