import type { RequestScope } from './request-scope.js';
import { qualifiedName, type KubeObject } from '../contracts/resource-type.js';
import type { CacheEvent } from '../watch/cache-event.js';
import type { CacheWatcher, WatchStart } from '../watch/watch-cache.js';
import { ApiError, errors } from '../contracts/api-error.js';
import { collectionPrefix } from '../store/keys.js';
import { selectorFilter } from './read-options.js';
import { parseListOptions, type ListOptions } from './list-options.js';
import { cacheIsConsistent, waitForCache } from './cached-reads.js';
import { WatchEventEncoder, type WatchEventType } from './watch-encoder.js';
import { sendHeaders } from '../server/header-bytes.js';
import { log } from '../../lib/log/logger.js';
import { onServerShutdown } from '../server/shutdown-signal.js';

/** kube-apiserver's default watch length is minRequestTimeout (1800s). */
const defaultWatchSeconds = 1800;
/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer timeoutSeconds would fire at once. */
const maxTimerMs = 2 ** 31 - 1;
/** A watcher whose client reads slower than this much output piles up is dropped (it re-watches), as kube does. */
export const maxBufferedBytes = 64 * 1024 * 1024;
/** Deliveries a watch may have waiting for a conversion webhook before it is dropped. */
const maxQueuedDeliveries = 10_000;
/** Initial events are written in pieces of about this size. */
const initialChunkBytes = 256 * 1024;

/**
 * A watch, served from the resource's watch cache: a chunked stream of events framed by the negotiated codec
 * (`{"type","object"}` JSON lines by default).
 * - resourceVersion unset / "0": ADDED events for the current state (consistent / any), then every change;
 *   N: every change after N (410 Expired as an ERROR event when the cache's history no longer reaches back to N).
 * - sendInitialEvents=true (streaming list): the state at least as new as resourceVersion, then a BOOKMARK marked
 *   `k8s.io/initial-events-end`; sendInitialEvents=false: no initial events.
 * - allowWatchBookmarks=true: BOOKMARK events every `bookmarkIntervalMs` (and after legacy initial events).
 * Selector filters turn MODIFIED into ADDED/DELETED when an object enters or leaves the selection, as kube does.
 */
export async function handleWatch(scope: RequestScope): Promise<void> {
  const { ctx, info, cache } = scope;
  const o = parseListOptions(scope.query, true);
  const selected = selectorFilter(scope);
  const matches = (obj: KubeObject | undefined): boolean =>
    obj !== undefined && (!info.name || obj.metadata?.name === info.name) && (!selected || selected(obj));
  const encoder = new WatchEventEncoder(scope);
  await cache.start();
  const start = await watchStart(scope, o);

  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, { 'Content-Type': encoder.contentType, 'Cache-Control': 'no-cache, private' });
  // A HEAD has no body to stream: its answer is the watch's headers, now (the client would otherwise wait for them).
  if (ctx.method === 'HEAD') {
    res.end();
    return;
  }
  sendHeaders(res);

  await new Promise<void>((resolve) => {
    let done = false;
    const write = (text: Buffer) => {
      if (done) return;
      res.write(text);
      if (res.writableLength > maxBufferedBytes) finish();
    };
    // With a conversion webhook, output waits for the conversion of its events; a queue keeps it in order.
    let queue = Promise.resolve();
    let queued = 0;
    /** Writes what `produce` encodes from `events` (it may write itself), once their visible objects are converted. */
    const send = (events: readonly CacheEvent[], produce: () => Buffer | undefined) => {
      if (!encoder.converts) {
        const data = produce();
        if (data) write(data);
        return;
      }
      // A watch that falls this far behind a slow webhook is dropped (it re-watches), as kube drops blocked watchers.
      if (++queued > maxQueuedDeliveries) return finish();
      queue = queue
        .then(() => (done ? undefined : encoder.prepare(events.filter((e) => eventType(e, matches)))))
        .then(() => {
          queued--;
          if (done) return;
          const data = produce();
          if (data) write(data);
        })
        .catch((err: Error) => {
          // kube-apiserver logs an event it cannot encode and ends the watch, without an ERROR event.
          log.error(`ending a watch of ${qualifiedName(scope.rt)} ${scope.version}: ${err.message}`);
          finish();
        });
    };
    const watcher: CacheWatcher = {
      keyPrefix: collectionPrefix(scope.rt, info.namespace),
      last: 0,
      // Without conversion, no closure per delivery: this is the fan-out's hot path.
      deliver: encoder.converts
        ? (events) => send(events, () => encodeEvents(events, matches, encoder))
        : (events) => {
            const data = encodeEvents(events, matches, encoder);
            if (data) write(data);
          },
      terminate: () => finish(),
    };
    const timers: NodeJS.Timeout[] = [];
    let unsubscribeShutdown = () => {};
    function finish() {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      unsubscribeShutdown();
      cache.unsubscribe(watcher);
      res.end();
      resolve();
    }
    res.on('close', finish);
    timers.push(setTimeout(finish, watchTimeoutMs(o)));
    // A server shutting down ends the watch as its timeout does: the stream's proper end, and the client re-watches.
    unsubscribeShutdown = onServerShutdown(ctx, finish);

    let initial: CacheEvent[];
    try {
      initial = cache.subscribe(watcher, start);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : errors.internal(String(err)).status;
      write(encoder.error(status));
      finish();
      return;
    }
    send(initial, () => {
      writeInitial(initial, matches, encoder, write);
      return undefined;
    });
    if (o.allowWatchBookmarks && start.from === 'state') {
      // A streaming list's state ends with the marked bookmark; a legacy initial list gets a plain one.
      const revision = watcher.last;
      send([], () => encoder.bookmark(revision, o.sendInitialEvents === true));
    }
    if (o.allowWatchBookmarks) {
      timers.push(
        setInterval(() => {
          if (watcher.last > cache.revision) return; // waiting for a future resourceVersion: nothing to vouch for yet
          const revision = Math.max(cache.dispatchedRevision, watcher.last); // vouches for what was handed over until now
          send([], () => encoder.bookmark(revision));
        }, scope.watchConfig.bookmarkIntervalMs),
      );
    }
  });
}

/** How long a watch lasts: its timeoutSeconds, else kube's default. */
export function watchTimeoutMs(o: ListOptions): number {
  return Math.min((o.timeoutSeconds || defaultWatchSeconds) * 1000, maxTimerMs);
}

/** Where the watch starts, from resourceVersion and sendInitialEvents (api-concepts "Semantics for watch", "Streaming lists"). */
async function watchStart(scope: RequestScope, o: ListOptions): Promise<WatchStart> {
  const rv = o.resourceVersion;
  if (o.sendInitialEvents === false) {
    if (rv) return { from: 'revision', revision: rv };
    if (rv === undefined) await cacheIsConsistent(scope);
    return { from: 'revision', revision: scope.cache.revision };
  }
  if (rv === undefined) {
    await cacheIsConsistent(scope); // a consistent start when the cache catches up in time, else the freshest it has
    return { from: 'state' };
  }
  if (rv === 0) return { from: 'state' };
  if (o.sendInitialEvents === true) {
    await waitForCache(scope, rv);
    return { from: 'state' };
  }
  return { from: 'revision', revision: rv };
}

function writeInitial(initial: CacheEvent[], matches: (obj: KubeObject | undefined) => boolean, encoder: WatchEventEncoder, write: (data: Buffer) => void): void {
  let chunk: Buffer[] = [];
  let size = 0;
  for (const e of initial) {
    const type = eventType(e, matches);
    if (!type) continue;
    const line = encoder.event(type, e);
    chunk.push(line);
    size += line.length;
    if (size >= initialChunkBytes) {
      write(Buffer.concat(chunk, size));
      chunk = [];
      size = 0;
    }
  }
  if (size > 0) write(Buffer.concat(chunk, size));
}

/** The watcher's bytes for a batch: the shared encoding itself when one event is visible (the usual case), no copy. */
function encodeEvents(events: CacheEvent[], matches: (obj: KubeObject | undefined) => boolean, encoder: WatchEventEncoder): Buffer | undefined {
  let single: Buffer | undefined;
  let many: Buffer[] | undefined;
  for (const e of events) {
    const type = eventType(e, matches);
    if (!type) continue;
    const line = encoder.event(type, e);
    if (!single) single = line;
    else (many ??= [single]).push(line);
  }
  return many ? Buffer.concat(many) : single;
}

/** The event as this watch sees it through its filter (undefined: not visible). */
function eventType(e: CacheEvent, matches: (obj: KubeObject | undefined) => boolean): WatchEventType | undefined {
  if (e.type === 'DELETED') return matches(e.object) ? 'DELETED' : undefined;
  const now = matches(e.object);
  if (e.type === 'ADDED') return now ? 'ADDED' : undefined;
  const before = matches(e.previous);
  if (now && before) return 'MODIFIED';
  if (now) return 'ADDED';
  if (before) return 'DELETED';
  return undefined;
}
