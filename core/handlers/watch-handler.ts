import type { RequestScope } from './request-scope.js';
import { qualifiedName, type KubeObject } from '../contracts/resource-type.js';
import type { CacheEvent } from '../watch/cache-event.js';
import type { WatchStart } from '../watch/watch-cache.js';
import type { CacheWatcher } from '../watch/cache-watcher.js';
import { ApiError, errors } from '../contracts/api-error.js';
import { collectionPrefix } from '../store/keys.js';
import { selectorFilter } from './read-options.js';
import { parseListOptions, type ListOptions } from './list-options.js';
import { cacheIsConsistent, waitForCache } from './cached-reads.js';
import { WatchEventEncoder, type WatchEventType } from './watch-encoder.js';
import { sendHeaders } from '../server/header-bytes.js';
import { StreamedResponse } from '../server/streamed-response.js';
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
  const stream = new StreamedResponse(res);

  await new Promise<void>((resolve) => {
    let done = false;
    /** Writes bytes framed for the stream (as the fan-out's shared batches are). */
    const send = (framed: Buffer) => {
      if (done) return;
      stream.send(framed);
      if (stream.bufferedBytes > maxBufferedBytes) finish();
    };
    const write = (bytes: Buffer) => send(stream.frame(bytes));
    // With a conversion webhook, output waits for the conversion of its events; a queue keeps it in order.
    let queue = Promise.resolve();
    let queued = 0;
    /** Runs `output` (which writes what it encodes from `events`) once the events' visible objects are converted. */
    const whenConverted = (events: readonly CacheEvent[], output: () => void) => {
      if (!encoder.converts) return output();
      // A watch that falls this far behind a slow webhook is dropped (it re-watches), as kube drops blocked watchers.
      if (++queued > maxQueuedDeliveries) return finish();
      queue = queue
        .then(() => (done ? undefined : encoder.prepare(events.filter((e) => eventType(e, matches)))))
        .then(() => {
          queued--;
          if (!done) output();
        })
        .catch((err: Error) => {
          // kube-apiserver logs an event it cannot encode and ends the watch, without an ERROR event.
          log.error(`ending a watch of ${qualifiedName(scope.rt)} ${scope.version}: ${err.message}`);
          finish();
        });
    };
    const deliver = (events: readonly CacheEvent[]) => {
      const data = encodeEvents(events, matches, encoder, stream);
      if (data) send(data);
    };
    const watcher: CacheWatcher = {
      keyPrefix: collectionPrefix(scope.rt, info.namespace),
      last: 0,
      // Without conversion, no closure per delivery: this is the fan-out's hot path.
      deliver: encoder.converts ? (events) => whenConverted(events, () => deliver(events)) : deliver,
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
    whenConverted(initial, () => writeInitial(initial, matches, encoder, write));
    if (o.allowWatchBookmarks && start.from === 'state') {
      // A streaming list's state ends with the marked bookmark; a legacy initial list gets a plain one.
      const revision = watcher.last;
      whenConverted([], () => write(encoder.bookmark(revision, o.sendInitialEvents === true)));
    }
    if (o.allowWatchBookmarks) {
      timers.push(
        setInterval(() => {
          if (watcher.last > cache.revision) return; // waiting for a future resourceVersion: nothing to vouch for yet
          const revision = Math.max(cache.dispatchedRevision, watcher.last); // vouches for what was handed over until now
          whenConverted([], () => write(encoder.bookmark(revision)));
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

/**
 * The watcher's bytes for a batch, framed for its stream. A watcher that sees every event as it is (no selector, or
 * one every event passes unchanged: the usual case) shares the batch's one encoding with every such watcher.
 */
function encodeEvents(events: readonly CacheEvent[], matches: (obj: KubeObject | undefined) => boolean, encoder: WatchEventEncoder, stream: StreamedResponse): Buffer | undefined {
  if (seesAsTheyAre(events, matches)) return encoder.batch(events, stream.framing);
  const lines: Buffer[] = [];
  for (const e of events) {
    const type = eventType(e, matches);
    if (type) lines.push(encoder.event(type, e));
  }
  if (!lines.length) return undefined;
  return stream.frame(lines.length === 1 ? lines[0]! : Buffer.concat(lines));
}

function seesAsTheyAre(events: readonly CacheEvent[], matches: (obj: KubeObject | undefined) => boolean): boolean {
  for (const e of events) if (eventType(e, matches) !== e.type) return false;
  return true;
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
