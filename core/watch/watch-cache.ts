import type { KVEvent, KVStore, KVWatch } from '../contracts/kv-store.js';
import type { KubeObject } from '../contracts/resource-type.js';
import type { WatchCacheConfig } from '../contracts/server-config.js';
import { errors } from '../contracts/api-error.js';
import type { ValueTransformer } from '../contracts/value-transformer.js';
import { decodeListed, decodeStored, withResourceVersion } from '../store/object-codec.js';
import type { CacheEvent } from './cache-event.js';
import { EventHistory } from './event-history.js';
import { objectWeight } from './object-weight.js';
import { compareKeys, SortedKeys } from './sorted-keys.js';
import { compactForCache } from './compact-object.js';
import { DispatchRound } from './dispatch-round.js';
import type { CacheWatcher } from './cache-watcher.js';
import { log } from '../../lib/log/logger.js';

/** Where a new watcher starts: the current state as synthetic ADDED events, or the changes after a revision. */
export type WatchStart = { from: 'state' } | { from: 'revision'; revision: number };

/** How long to wait before reloading after the storage watch failed. */
const reloadDelayMs = 1000;
/** Watchers served per macrotask while fanning a batch out, so requests are not stalled behind a large fan-out. */
const watchersPerSlice = 200;
/**
 * With this many watchers or more, a new round waits `fanOutLingerMs` for more events before it starts (like Nagle's
 * algorithm): each watcher write costs far more than its bytes, so a wide fan-out delivers several events per write.
 */
const lingerFromWatchers = 256;
const fanOutLingerMs = 10;

/**
 * The watch cache of one resource (like kube-apiserver's cacher): the current objects under the resource's storage
 * prefix, kept up to date by one storage watch, plus a bounded history of recent events. Lists and watches of the
 * resource are served from here, so N watchers cost one storage watch and each event is decoded once.
 *
 * `revision` is the store revision the cache reflects; storage progress notifications advance it even when other
 * resources change, which lets a consistent read wait until the cache has caught up with storage.
 */
export class WatchCache {
  private readonly objects = new Map<string, KubeObject>();
  /** The keys of `objects` in ascending order. */
  private readonly keys = new SortedKeys();
  private readonly history: EventHistory;
  private readonly watchers = new Set<CacheWatcher>();
  private pending: CacheEvent[] = [];
  private round?: DispatchRound;
  private dispatchScheduled = false;
  private applied = 0;
  private dispatched = 0;
  private waiters = new Set<{ revision: number; resolve: (reached: boolean) => void; timer: NodeJS.Timeout }>();
  private kvWatch?: KVWatch;
  private loaded?: Promise<void>;
  private trimTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly kv: KVStore,
    /** The resource's storage prefix (all namespaces). */
    readonly prefix: string,
    private readonly config: WatchCacheConfig,
    /** How the resource's values are stored (encryption at rest). */
    private readonly transformer: ValueTransformer,
  ) {
    this.history = new EventHistory(0, config.historyMaxEvents, config.historyWindowMs, config.historyMaxBytes);
  }

  /** Loads the current state and starts following storage. Resolves when the cache can serve. */
  start(): Promise<void> {
    if (!this.loaded) {
      this.loaded = this.load();
      // a first load that fails (storage unreachable at start) is retried as after a lost watch
      this.loaded.catch((err: Error) => this.storageWatchFailed(err));
    }
    this.trimTimer ??= setInterval(() => this.history.trim(), Math.min(this.config.historyWindowMs, 10_000)).unref();
    return this.loaded;
  }

  /** Whether the cache has loaded and follows storage. */
  get isReady(): boolean {
    return this.kvWatch !== undefined;
  }

  /** How many objects the cache holds. */
  get size(): number {
    return this.objects.size;
  }

  /** The store revision the cache's state reflects. */
  get revision(): number {
    return this.applied;
  }

  /** Every watcher has been handed every event up to this revision. */
  get dispatchedRevision(): number {
    return this.dispatched;
  }

  /** Resolves true once the cache reflects `revision`, or false after `timeoutMs`. */
  waitForRevision(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.applied >= revision && this.isReady) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        revision,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** The objects under `keyPrefix` (a namespace's or the whole resource's), in key order. Do not mutate them. */
  list(keyPrefix: string): { items: KubeObject[]; revision: number } {
    const keys = this.keysUnder(keyPrefix);
    const items = new Array<KubeObject>(keys.length);
    for (let i = 0; i < keys.length; i++) items[i] = this.objects.get(keys[i]!)!;
    return { items, revision: this.applied };
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /** How many objects the resource has (what priority and fairness estimates a list's cost from). */
  get objectCount(): number {
    return this.objects.size;
  }

  /** How many watches follow the resource (what a write's notification cost is estimated from). */
  get watcherCount(): number {
    return this.watchers.size;
  }

  /**
   * Adds a watcher and returns its first events, in one synchronous step so nothing falls between them and the live
   * stream: the state under its prefix as ADDED events, or the history after a revision. Throws 410 Expired when
   * the history does not reach back to that revision.
   */
  subscribe(watcher: CacheWatcher, start: WatchStart): CacheEvent[] {
    let initial: CacheEvent[];
    if (start.from === 'state') {
      initial = this.keysUnder(watcher.keyPrefix).map((key) => {
        const object = this.objects.get(key)!;
        return { type: 'ADDED', key, object, revision: Number(object.metadata?.resourceVersion) };
      });
      watcher.last = this.applied;
    } else {
      const replay = this.history.since(start.revision);
      if (!replay) throw errors.expired(`too old resource version: ${start.revision} (${this.history.startRevision})`);
      initial = replay.filter((e) => e.key.startsWith(watcher.keyPrefix));
      watcher.last = Math.max(start.revision, this.applied);
    }
    this.watchers.add(watcher);
    return initial;
  }

  unsubscribe(watcher: CacheWatcher): void {
    this.watchers.delete(watcher);
  }

  /** Stops following storage and ends every watch. */
  stop(): void {
    this.stopped = true;
    this.kvWatch?.cancel();
    this.kvWatch = undefined;
    clearInterval(this.trimTimer);
    this.terminateWatchers();
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    this.waiters.clear();
  }

  private async load(): Promise<void> {
    const res = await this.kv.range(this.prefix);
    if (this.stopped) return;
    this.objects.clear();
    for (const kv of res.kvs) this.objects.set(kv.key, compactForCache(decodeListed(kv, this.transformer)));
    this.keys.reset(res.kvs.map((kv) => kv.key));
    this.applied = res.revision;
    this.dispatched = res.revision;
    this.history.reset(res.revision);
    this.kvWatch = this.kv.watch(this.prefix, res.revision, {
      // A value the cache cannot read (stored under a key this server lacks) throws here; the store then ends the watch
      // (onError) and the cache reloads, failing until the value is readable or gone, as kube's cacher does.
      onEvents: (events) => this.apply(events),
      onProgress: (revision) => this.progress(revision),
      onError: (err) => this.storageWatchFailed(err),
    });
    this.wakeWaiters();
  }

  private apply(events: KVEvent[]): void {
    const now = Date.now();
    for (const e of events) {
      const key = e.kv.key;
      const revision = e.kv.modRevision;
      const previous = this.objects.get(key);
      // `holder` (set by the history) is in the literal so that it takes a slot of the event rather than a separate
      // property array per event.
      let event: CacheEvent;
      if (e.type === 'DELETE') {
        const last = previous ?? decodeStored(e.kv, this.transformer);
        const object = withResourceVersion(last, String(revision));
        if (this.objects.delete(key)) this.keys.remove(key);
        event = { type: 'DELETED', key, object, previous, revision, holder: undefined };
      } else {
        const object = compactForCache(decodeStored(e.kv, this.transformer));
        if (!previous) this.keys.add(key);
        this.objects.set(key, object);
        event = { type: e.kv.createRevision === revision ? 'ADDED' : 'MODIFIED', key, object, previous, revision, holder: undefined };
      }
      this.history.append(event, objectWeight(event.object), now);
      this.pending.push(event);
      this.round?.add(event);
      this.applied = revision;
    }
    this.scheduleDispatch();
    this.wakeWaiters();
  }

  private progress(revision: number): void {
    if (revision <= this.applied) return;
    this.applied = revision;
    if (!this.dispatchScheduled && !this.round) this.dispatched = revision;
    this.wakeWaiters();
  }

  /**
   * Fans events out on later macrotasks rather than per storage batch, a slice of watchers at a time: while a large
   * fan-out is under way, requests keep being served, and new events join the round for the watchers it has not
   * reached and gather into the next round for the others, so a busy server writes once per watcher for many events
   * instead of once per event.
   */
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    if (!this.round && this.watchers.size >= lingerFromWatchers) setTimeout(() => this.dispatchSlice(), fanOutLingerMs);
    else setImmediate(() => this.dispatchSlice());
  }

  private dispatchSlice(): void {
    this.dispatchScheduled = false;
    if (!this.round) {
      if (this.pending.length === 0) return;
      this.round = new DispatchRound(this.pending, this.applied, [...this.watchers]);
      this.pending = [];
    }
    const round = this.round;
    round.serveNext(watchersPerSlice, this.watchers);
    if (round.done) {
      this.round = undefined;
      this.dispatched = round.upTo;
    }
    if (this.round || this.pending.length > 0) this.scheduleDispatch();
  }

  private wakeWaiters(): void {
    if (!this.isReady) return;
    for (const w of this.waiters) {
      if (this.applied >= w.revision) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        w.resolve(true);
      }
    }
  }

  /** The storage watch ended (e.g. compacted while we lagged): end the watches, reload, follow again. */
  private storageWatchFailed(err: Error): void {
    if (this.stopped) return;
    log.error(`watch cache for ${this.prefix} lost its storage watch (${err.message}); reloading`);
    this.kvWatch = undefined;
    this.terminateWatchers();
    this.pending = [];
    this.round = undefined;
    this.loaded = new Promise<void>((resolve) => setTimeout(resolve, reloadDelayMs).unref()).then(() => this.load());
    this.loaded.catch((e: Error) => this.storageWatchFailed(e));
  }

  private terminateWatchers(): void {
    const all = [...this.watchers];
    this.watchers.clear();
    for (const w of all) w.terminate();
  }

  private keysUnder(keyPrefix: string): readonly string[] {
    const keys = this.keys.all();
    if (keyPrefix === this.prefix) return keys;
    const start = firstWhere(keys, 0, (k) => compareKeys(k, keyPrefix) >= 0);
    // Keys from `start` on begin with the prefix up to some point, then never again.
    const end = firstWhere(keys, start, (k) => !k.startsWith(keyPrefix));
    return keys.slice(start, end);
  }
}

/** The first index from `from` on where `found` holds, for a `found` that holds from some index to the end. */
function firstWhere(keys: readonly string[], from: number, found: (key: string) => boolean): number {
  let lo = from;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (found(keys[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
