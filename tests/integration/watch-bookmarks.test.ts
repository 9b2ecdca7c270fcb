/**
 * Watch bookmarks and streaming lists (api-concepts "Watch bookmarks", "Streaming lists"): periodic BOOKMARK events
 * when allowWatchBookmarks=true, their shape and resourceVersions, and sendInitialEvents=true ending the initial
 * ADDED events with a BOOKMARK annotated k8s.io/initial-events-end.
 */
import test, { type ExecutionContext } from 'ava';
import { createNamespace, createWidget, useTestServer, widgetsPath, type WatchEvent, type WatchStream } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true, config: { watchCache: { bookmarkIntervalMs: 200 } } });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rvOf = (e: WatchEvent): bigint => BigInt(e.object.metadata.resourceVersion);
const isBookmark = (e: WatchEvent) => e.type === 'BOOKMARK';
const endAnnotation = { 'k8s.io/initial-events-end': 'true' };

async function listRv(ns: string): Promise<string> {
  return (await server.request('GET', widgetsPath(ns))).body.metadata.resourceVersion;
}

/** A namespace with w1..w5 (w1, w2, w4 labelled tier=gold; w3 silver; w5 none). */
async function fiveWidgets(): Promise<{ ns: string; rvs: string[] }> {
  const ns = await createNamespace(server, 'bm');
  const tiers = ['gold', 'gold', 'silver', 'gold', undefined];
  const rvs: string[] = [];
  for (const [i, tier] of tiers.entries()) {
    const w = await createWidget(server, ns, `w${i + 1}`, tier ? { labels: { tier } } : {});
    rvs.push(w.metadata.resourceVersion);
  }
  return { ns, rvs };
}

/** Next event that is not a BOOKMARK. */
async function nextChange(watch: WatchStream, timeoutMs = 5000): Promise<WatchEvent> {
  for (;;) {
    const e = await watch.next(timeoutMs);
    if (!isBookmark(e)) return e;
  }
}

/** A bookmark's object: the watched kind with metadata holding only resourceVersion (and, if given, annotations). */
function expectBookmarkShape(t: ExecutionContext, e: WatchEvent, annotations?: Record<string, string>): void {
  t.is(e.type, 'BOOKMARK');
  t.is(e.object?.apiVersion, 'example.com/v1');
  t.is(e.object?.kind, 'Widget');
  t.regex(String(e.object?.metadata?.resourceVersion), /^[1-9]\d*$/);
  const expectedKeys = annotations ? ['annotations', 'resourceVersion'] : ['resourceVersion'];
  t.deepEqual(Object.keys(e.object?.metadata ?? {}).sort(), expectedKeys, `bookmark metadata: ${JSON.stringify(e.object?.metadata)}`);
  if (annotations) t.deepEqual(e.object.metadata.annotations, annotations);
}

test('allowWatchBookmarks=true: BOOKMARK events arrive periodically, shaped as the watched kind', async (t) => {
  const ns = await createNamespace(server, 'bm');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&allowWatchBookmarks=true&resourceVersion=${await listRv(ns)}`);
  try {
    t.is(watch.status, 200);
    await sleep(1500);
    const bookmarks = watch.events.filter(isBookmark);
    t.true(bookmarks.length >= 2, `${bookmarks.length} bookmarks in 1.5s with bookmarkIntervalMs 200`);
    t.deepEqual(watch.events.filter((e) => !isBookmark(e)), []);
    for (const b of bookmarks) expectBookmarkShape(t, b);
  } finally {
    watch.close();
  }
});

test('bookmark resourceVersions never decrease and are >= every event delivered before them', async (t) => {
  const ns = await createNamespace(server, 'bm');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&allowWatchBookmarks=true&resourceVersion=${await listRv(ns)}`);
  try {
    for (let i = 1; i <= 3; i++) {
      await createWidget(server, ns, `w${i}`);
      await sleep(300);
    }
    const bookmarks = watch.events.filter(isBookmark);
    t.true(bookmarks.length >= 2, `${bookmarks.length} bookmarks`);
    t.is(watch.events.filter((e) => e.type === 'ADDED').length, 3);
    let maxEvent = 0n;
    let lastBookmark = 0n;
    for (const [i, e] of watch.events.entries()) {
      if (isBookmark(e)) {
        t.true(rvOf(e) >= lastBookmark, `bookmark ${i} rv ${rvOf(e)} >= previous bookmark ${lastBookmark}`);
        t.true(rvOf(e) >= maxEvent, `bookmark ${i} rv ${rvOf(e)} >= earlier events' ${maxEvent}`);
        lastBookmark = rvOf(e);
      } else if (rvOf(e) > maxEvent) {
        maxEvent = rvOf(e);
      }
    }
  } finally {
    watch.close();
  }
});

test('without allowWatchBookmarks no BOOKMARK arrives', async (t) => {
  const ns = await createNamespace(server, 'bm');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1`);
  try {
    await createWidget(server, ns, 'w1');
    t.is((await watch.next()).type, 'ADDED');
    await sleep(1000);
    t.deepEqual(watch.events.map((e) => e.type), ['ADDED']);
  } finally {
    watch.close();
  }
});

test('a watch with resourceVersion unset and allowWatchBookmarks=true: the initial ADDED events are followed by a BOOKMARK', async (t) => {
  const { ns, rvs } = await fiveWidgets();
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&allowWatchBookmarks=true`);
  try {
    const added: WatchEvent[] = [];
    for (let i = 0; i < 5; i++) added.push(await nextChange(watch));
    t.deepEqual(added.map((e) => `${e.type} ${e.object.metadata.name}`).sort(), ['ADDED w1', 'ADDED w2', 'ADDED w3', 'ADDED w4', 'ADDED w5']);
    const bookmark = await watch.next(2000);
    t.is(bookmark.type, 'BOOKMARK');
    t.is(bookmark.object?.kind, 'Widget');
    t.true(rvOf(bookmark) >= BigInt(rvs[4]!), `bookmark rv ${rvOf(bookmark)} >= last ADDED ${rvs[4]}`);
  } finally {
    watch.close();
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Streaming lists

const streaming = 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';

/** Events up to and including the initial-events-end bookmark. */
async function initialEvents(watch: WatchStream): Promise<{ before: WatchEvent[]; end: WatchEvent }> {
  const before: WatchEvent[] = [];
  for (;;) {
    const e = await watch.next(5000);
    if (isBookmark(e) && e.object?.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true') return { before, end: e };
    before.push(e);
  }
}

for (const variant of ['unset', 'empty', 'N', '0'] as const) {
  test(`streaming list (resourceVersion ${variant}): ADDED for every object, the initial-events-end BOOKMARK, then live events`, async (t) => {
    const { ns, rvs } = await fiveWidgets();
    const rvParam = { unset: '', empty: '&resourceVersion=', N: `&resourceVersion=${rvs[2]}`, '0': '&resourceVersion=0' }[variant];
    if (variant === '0') {
      await server.waitFor(async () => (await server.request('GET', `${widgetsPath(ns)}?resourceVersion=0`)).body.items?.length === 5, 5000);
    }
    const watch = await server.watch(`${widgetsPath(ns)}?${streaming}${rvParam}`);
    try {
      t.is(watch.status, 200);
      const { before, end } = await initialEvents(watch);
      t.true(before.every((e) => e.type === 'ADDED'), `before the end bookmark: ${before.map((e) => e.type).join(', ')}`);
      t.deepEqual(before.map((e) => e.object.metadata.name).sort(), ['w1', 'w2', 'w3', 'w4', 'w5']);
      expectBookmarkShape(t, end, endAnnotation);
      for (const e of before) t.true(rvOf(end) >= rvOf(e), `end bookmark rv ${rvOf(end)} >= ${e.object.metadata.name}'s ${rvOf(e)}`);
      if (variant === 'N') t.true(rvOf(end) >= BigInt(rvs[2]!));

      await createWidget(server, ns, 'w6');
      const live = await nextChange(watch);
      t.is(`${live.type} ${live.object.metadata.name}`, 'ADDED w6');
      t.true(rvOf(live) > rvOf(end));
    } finally {
      watch.close();
    }
  });
}

test('sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=N: no initial events, only changes after N', async (t) => {
  const { ns } = await fiveWidgets();
  const n = await listRv(ns);
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=${n}`);
  try {
    t.is(watch.status, 200);
    await createWidget(server, ns, 'w6');
    await server.request('PATCH', widgetsPath(ns, 'w1'), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
    const events = [await nextChange(watch), await nextChange(watch)];
    t.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED w6', 'MODIFIED w1']);
    t.false(watch.events.some((e) => e.object?.metadata?.annotations?.['k8s.io/initial-events-end']));
  } finally {
    watch.close();
  }
});

test('a streaming list with a labelSelector sends initial events only for matching objects', async (t) => {
  const { ns } = await fiveWidgets();
  const watch = await server.watch(`${widgetsPath(ns)}?${streaming}&labelSelector=tier%3Dgold`);
  try {
    const { before, end } = await initialEvents(watch);
    t.deepEqual(before.map((e) => `${e.type} ${e.object.metadata.name}`).sort(), ['ADDED w1', 'ADDED w2', 'ADDED w4']);
    expectBookmarkShape(t, end, endAnnotation);
    await createWidget(server, ns, 'w6', { labels: { tier: 'silver' } });
    await createWidget(server, ns, 'w7', { labels: { tier: 'gold' } });
    const live = await nextChange(watch);
    t.is(`${live.type} ${live.object.metadata.name}`, 'ADDED w7', 'the silver w6 is not delivered');
  } finally {
    watch.close();
  }
});
