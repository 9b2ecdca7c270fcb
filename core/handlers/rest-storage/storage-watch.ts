import type { StorageScope } from './storage-scope.js';
import { restContext } from './storage-scope.js';
import type { RestContext, RestListOptions, RestWatchEvent } from '../../contracts/rest-storage.js';
import type { KubeObject } from '../../contracts/kube-object.js';
import { ApiError, errors } from '../../contracts/api-error.js';
import { qualifiedName } from '../../contracts/resource-type.js';
import { parseListOptions } from '../list-options.js';
import { WatchEventEncoder } from '../watch-encoder.js';
import { maxBufferedBytes, watchTimeoutMs } from '../watch-handler.js';
import { sendHeaders } from '../../server/header-bytes.js';
import { onServerShutdown } from '../../server/shutdown-signal.js';
import { restListOptions, selectedItems, withTypeMeta } from './storage-reads.js';
import { log } from '../../../lib/log/logger.js';

/**
 * A watch served from the storage's event stream, framed by the negotiated codec exactly as the watch cache's watches
 * are. kapi filters events by the URL's name and the selectors, passes BOOKMARKs only to clients that asked for
 * them, and sends those clients one every bookmark interval with the resourceVersion of the storage's latest event
 * (seen or filtered out: what a selective watch cannot learn otherwise). It ends the stream (aborting the storage's signal) when the client goes, at timeoutSeconds, when the
 * client reads too slowly, or when the server shuts down.
 *
 * A watch-list (sendInitialEvents=true) of a storage that can list is served as kube's cacher serves one: the
 * storage's list (at least as new as the resourceVersion asked for) as ADDED events, a BOOKMARK marked
 * `k8s.io/initial-events-end` with the list's resourceVersion when bookmarks are allowed, then the storage's watch
 * from that resourceVersion. A watch from no resourceVersion or "0" starts with the list's ADDED events too, as kube's
 * watches do (no end bookmark then), unless sendInitialEvents=false.
 */
export async function storageWatch(scope: StorageScope): Promise<void> {
  const { ctx } = scope;
  const o = parseListOptions(scope.query, true);
  const options = restListOptions(scope, o);
  const encoder = new WatchEventEncoder(scope);
  const stop = new AbortController();
  scope.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const storageCtx = { ...restContext(scope, false), signal: stop.signal };
  // Listed before the response starts: a list that fails answers with its Status, as kube's failed watch does.
  const initial = sendsInitialEvents(o.sendInitialEvents, options.resourceVersion) && scope.storage.list ? await initialState(scope, storageCtx, options) : undefined;
  const from = initial ? { ...options, resourceVersion: initial.resourceVersion } : options;
  const events = scope.storage.watch!(storageCtx, from)[Symbol.asyncIterator]();

  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, { 'Content-Type': encoder.contentType, 'Cache-Control': 'no-cache, private' });
  if (ctx.method === 'HEAD') {
    stop.abort();
    void events.return?.().catch(() => undefined);
    res.end();
    return;
  }
  sendHeaders(res);

  // the client may have gone while the initial list was read: a listener added now would never hear of it
  const stopped = stop.signal.aborted ? Promise.resolve(undefined) : new Promise<undefined>((resolve) => stop.signal.addEventListener('abort', () => resolve(undefined), { once: true }));
  if (initial) {
    for (const object of initial.objects) res.write(encoder.event('ADDED', { type: 'ADDED', key: '', object, revision: 0 }));
    // Clients that allow bookmarks learn where the initial events end (marked so for a watch-list, as kube does).
    if (o.allowWatchBookmarks) res.write(encoder.bookmark(initial.resourceVersion, o.sendInitialEvents === true));
  }
  const timer = setTimeout(() => stop.abort(), watchTimeoutMs(o));
  const unsubscribeShutdown = onServerShutdown(ctx, () => stop.abort());
  /** The resourceVersion of the storage's latest event, which a synthesized bookmark vouches for. */
  let latest = initial?.resourceVersion ?? '';
  const bookmarks = o.allowWatchBookmarks
    ? setInterval(() => latest && !stop.signal.aborted && res.write(encoder.bookmark(latest)), scope.bookmarkIntervalMs)
    : undefined;
  try {
    for (;;) {
      const next = await Promise.race([events.next(), stopped]);
      if (!next || next.done) break;
      latest = next.value.object.metadata?.resourceVersion || latest;
      const data = encode(next.value, scope, encoder, options);
      if (!data) continue;
      res.write(data);
      if (res.writableLength > maxBufferedBytes) break;
    }
  } catch (err) {
    if (!stop.signal.aborted) {
      if (!(err instanceof ApiError)) log.error(`the storage's watch of ${qualifiedName(scope.rt)} failed: ${String(err)}`);
      res.write(encoder.error((err instanceof ApiError ? err : errors.internal(String(err))).status));
    }
  } finally {
    clearTimeout(timer);
    clearInterval(bookmarks);
    unsubscribeShutdown();
    stop.abort();
    // A storage that ignores its signal would hold a pending next() forever: ending is not awaited.
    void events.return?.().catch(() => undefined);
    res.end();
  }
}

/** Whether the watch starts with the current objects: asked for, or (unless refused) a watch from no resourceVersion or "0". */
function sendsInitialEvents(asked: boolean | undefined, resourceVersion: string): boolean {
  return asked ?? (resourceVersion === '' || resourceVersion === '0');
}

/** A watch-list's initial state: the storage's whole list as this watch sees it, and the list's resourceVersion. */
async function initialState(scope: StorageScope, ctx: RestContext, options: RestListOptions): Promise<{ objects: KubeObject[]; resourceVersion: string }> {
  const list = await scope.storage.list!(ctx, { ...options, limit: undefined, continue: '' });
  const objects = selectedItems(list, options, scope).filter((object) => !scope.info.name || object.metadata?.name === scope.info.name);
  return { objects, resourceVersion: list.resourceVersion ?? '' };
}

/** One storage event as this watch sends it (undefined: not visible to it). */
function encode(e: RestWatchEvent, scope: StorageScope, encoder: WatchEventEncoder, options: RestListOptions): Buffer | undefined {
  if (e.type === 'BOOKMARK') return options.allowWatchBookmarks ? encoder.bookmark(e.object.metadata?.resourceVersion ?? '') : undefined;
  const object = withTypeMeta(e.object, scope);
  if (scope.info.name && object.metadata?.name !== scope.info.name) return undefined;
  if (!options.matches(object)) return undefined;
  return encoder.event(e.type, { type: e.type, key: '', object, revision: 0 });
}
