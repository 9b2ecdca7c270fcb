// A watch-list (sendInitialEvents=true&resourceVersionMatch=NotOlderThan) of a resource served from its own
// RestStorage, over HTTP, as kube's cacher answers one: the storage's list as ADDED events (filtered by the
// selectors, typed), the BOOKMARK marked k8s.io/initial-events-end with the list's resourceVersion when bookmarks are
// allowed, then the storage's watch from that resourceVersion. Invalid combinations are kube's 422, as for resources
// kept in kapi's store.
import test from 'ava';
import { resourceModule, type KubeObject, type RestStorage, type RestWatchEvent } from '../../index.js';
import { expectStatus, useTestServer, type WatchEvent, type WatchStream } from '../helpers/test-server.js';
import { sendBinary } from '../helpers/binary-request.js';
import { independentCbor } from '../helpers/independent-cbor.js';

const group = 'watchlist.example.com';
const apiVersion = `${group}/v1`;
const endAnnotation = 'k8s.io/initial-events-end';

/** Every change in order (objects without apiVersion/kind: kapi fills them in); the storage's state follows them. */
const changes: RestWatchEvent[] = [];
const beacons = new Map<string, KubeObject>();
let revision = 100;
const wakers = new Set<() => void>();
/** The resourceVersion each list and watch call was given. */
const listedAt: string[] = [];
const watchedFrom: string[] = [];
/** Runs once right after the next list took its state: a change racing the watch-list. */
let afterNextList: (() => void) | undefined;

function change(type: 'ADDED' | 'MODIFIED' | 'DELETED', namespace: string, name: string, labels: Record<string, string> = {}): string {
  const object: KubeObject = { metadata: { name, namespace, labels, resourceVersion: String(++revision) }, spec: { type } };
  if (type === 'DELETED') beacons.delete(`${namespace}/${name}`);
  else beacons.set(`${namespace}/${name}`, object);
  changes.push({ type, object });
  for (const wake of wakers) wake();
  return String(revision);
}

/** Leaves selectors to kapi; watches replay the changes after their resourceVersion (or from now), then follow. */
const beaconStorage: RestStorage = {
  async list(ctx, options) {
    listedAt.push(options.resourceVersion);
    const items = [...beacons.values()].filter((b) => b.metadata!.namespace === ctx.namespace);
    const list = { items, resourceVersion: String(revision) };
    afterNextList?.();
    afterNextList = undefined;
    return list;
  },
  async *watch(ctx, options) {
    watchedFrom.push(options.resourceVersion);
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
      if (next.object.metadata!.namespace === ctx.namespace) yield next;
    }
  },
};

const server = useTestServer({
  storage: 'memory',
  modules: [resourceModule({ group, versions: ['v1'], kind: 'Beacon', plural: 'beacons', scope: 'Namespaced', storage: beaconStorage })],
});
const beaconsPath = (ns: string) => `/apis/${group}/v1/namespaces/${ns}/beacons`;
const watchList = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan';
const names = (events: WatchEvent[]) => events.map((e) => (e.type === 'BOOKMARK' ? 'BOOKMARK' : `${e.type} ${e.object.metadata.name}`));

async function take(watch: WatchStream, n: number): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  while (events.length < n) events.push(await watch.next());
  return events;
}

test.serial('a watch-list sends the objects as ADDED, the initial-events-end BOOKMARK with the list\'s resourceVersion, then the changes after the list', async (t) => {
  change('ADDED', 'wl-basic', 'b1');
  change('ADDED', 'wl-basic', 'b2', { color: 'blue' });
  const listRv = String(revision);
  afterNextList = () => change('ADDED', 'wl-basic', 'b3'); // after the list's state, before the storage's watch starts
  const watch = await server.watch(`${beaconsPath('wl-basic')}?${watchList}&allowWatchBookmarks=true`);
  try {
    t.is(watch.status, 200);
    const initial = await take(watch, 2);
    t.deepEqual(
      initial.map((e) => e.object),
      [
        { apiVersion, kind: 'Beacon', metadata: { name: 'b1', namespace: 'wl-basic', labels: {}, resourceVersion: String(Number(listRv) - 1) }, spec: { type: 'ADDED' } },
        { apiVersion, kind: 'Beacon', metadata: { name: 'b2', namespace: 'wl-basic', labels: { color: 'blue' }, resourceVersion: listRv }, spec: { type: 'ADDED' } },
      ],
    );
    t.deepEqual(names(initial), ['ADDED b1', 'ADDED b2']);
    t.deepEqual(await watch.next(), {
      type: 'BOOKMARK',
      object: { kind: 'Beacon', apiVersion, metadata: { resourceVersion: listRv, annotations: { [endAnnotation]: 'true' } } },
    });
    t.is(watchedFrom.at(-1), listRv, 'the storage is watched from the list\'s resourceVersion');
    t.like(await watch.next(), { type: 'ADDED', object: { apiVersion, kind: 'Beacon', metadata: { name: 'b3', resourceVersion: String(Number(listRv) + 1) } } });
    const modified = change('MODIFIED', 'wl-basic', 'b1');
    t.like(await watch.next(), { type: 'MODIFIED', object: { metadata: { name: 'b1', resourceVersion: modified } } });
  } finally {
    watch.close();
  }
});

test.serial('selectors apply to the initial events as to the changes; the list is asked for the resourceVersion sent', async (t) => {
  change('ADDED', 'wl-sel', 'r1', { color: 'red' });
  change('ADDED', 'wl-sel', 'b1', { color: 'blue' });
  const rv = change('ADDED', 'wl-sel', 'r2', { color: 'red' });
  const red = await server.watch(`${beaconsPath('wl-sel')}?${watchList}&allowWatchBookmarks=true&labelSelector=color%3Dred&resourceVersion=${rv}`);
  const byName = await server.watch(`${beaconsPath('wl-sel')}?${watchList}&allowWatchBookmarks=true&fieldSelector=metadata.name%3Db1`);
  try {
    t.deepEqual(names(await take(red, 3)), ['ADDED r1', 'ADDED r2', 'BOOKMARK']);
    t.is(red.events[2]!.object.metadata.annotations[endAnnotation], 'true');
    t.true(listedAt.includes(rv), `lists asked for ${listedAt.join(', ')}`);
    t.deepEqual(names(await take(byName, 2)), ['ADDED b1', 'BOOKMARK']);

    change('MODIFIED', 'wl-sel', 'b1', { color: 'blue' });
    change('ADDED', 'wl-sel', 'r3', { color: 'red' });
    t.deepEqual(names([await red.next()]), ['ADDED r3'], 'the blue b1 is not for this watch');
    t.deepEqual(names([await byName.next()]), ['MODIFIED b1']);
  } finally {
    red.close();
    byName.close();
  }
});

test.serial('without allowWatchBookmarks (kube accepts it) the initial events are followed by the changes, with no BOOKMARK', async (t) => {
  change('ADDED', 'wl-nobm', 'b1');
  const watch = await server.watch(`${beaconsPath('wl-nobm')}?${watchList}`);
  try {
    t.deepEqual(names([await watch.next()]), ['ADDED b1']);
    change('DELETED', 'wl-nobm', 'b1');
    t.deepEqual(names([await watch.next()]), ['DELETED b1']);
    t.false(watch.events.some((e) => e.type === 'BOOKMARK'));
  } finally {
    watch.close();
  }
});

test.serial('every representation and codec frames the initial events and the end bookmark as for other watches', async (t) => {
  const rv = change('ADDED', 'wl-codecs', 'b1', { color: 'green' });
  const meta = await server.watch(`${beaconsPath('wl-codecs')}?${watchList}&allowWatchBookmarks=true`, {
    headers: { Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' },
  });
  try {
    t.deepEqual(await take(meta, 2), [
      { type: 'ADDED', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'b1', namespace: 'wl-codecs', labels: { color: 'green' }, resourceVersion: rv } } },
      { type: 'BOOKMARK', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: rv, annotations: { [endAnnotation]: 'true' } } } },
    ]);
  } finally {
    meta.close();
  }

  // timeoutSeconds ends the stream: its bytes are the whole CBOR sequence.
  const res = await sendBinary(server, 'GET', `${beaconsPath('wl-codecs')}?${watchList}&allowWatchBookmarks=true&timeoutSeconds=1`, { accept: 'application/cbor' });
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/cbor-seq');
  const events = independentCbor.decodeMultiple(res.bytes).map(plain);
  t.deepEqual(events, [
    { type: 'ADDED', object: { apiVersion, kind: 'Beacon', metadata: { name: 'b1', namespace: 'wl-codecs', labels: { color: 'green' }, resourceVersion: rv }, spec: { type: 'ADDED' } } },
    { type: 'BOOKMARK', object: { apiVersion, kind: 'Beacon', metadata: { resourceVersion: rv, annotations: { [endAnnotation]: 'true' } } } },
  ]);
});

const invalid: [string, string][] = [
  ['sendInitialEvents=true&allowWatchBookmarks=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
  ['resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
  ['sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=abc', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
];
for (const [query, error] of invalid) {
  test.serial(`a watch with ${query} is kube's 422 on ListOptions, before the storage is called`, async (t) => {
    const calls = listedAt.length + watchedFrom.length;
    const res = await server.request('GET', `${beaconsPath('wl-invalid')}?watch=true&${query}&timeoutSeconds=1`);
    expectStatus(t, res, { code: 422, reason: 'Invalid', message: `ListOptions.meta.k8s.io "" is invalid: ${error}` });
    t.like(res.body.details, { group: 'meta.k8s.io', kind: 'ListOptions', causes: [{ field: 'resourceVersionMatch' }] });
    t.is(listedAt.length + watchedFrom.length, calls);
  });
}

/** node-cbor's byte strings and maps as JSON values (kube writes strings as byte strings). */
function plain(v: unknown): any {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [Buffer.isBuffer(k) ? k.toString('utf8') : k, plain(x)]));
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (Array.isArray(v)) return v.map(plain);
  return v;
}
