import { CompactedError, type KVEvent, type KVWatch, type KVWatchHandlers } from '../../../core/contracts/kv-store.js';
import { hasPrefix } from '../keys.js';
import type { EtcdClient } from './etcd-client.js';
import { storageClosed, toApiError } from './etcd-errors.js';
import type { EtcdKeys } from './etcd-keys.js';
import { toKVEvent } from './etcd-values.js';
import type { WatchCreateRequest, WatchEvent } from './grpc/etcd-messages.js';
import { openEtcdWatch, type EtcdWatchHandle } from './etcd-watch-stream.js';

/** What the feed needs from its store. */
export interface FeedSource {
  readonly client: EtcdClient;
  readonly keys: EtcdKeys;
  /** etcd's current revision (a quorum read). */
  currentRevision(): Promise<number>;
  /** The highest compacted revision the store knows of. */
  compactedRevision(): number;
  /** etcd said a watch's start revision is compacted, up to `revision`. */
  onCompacted(revision: number): void;
  /** An etcd event outside the store's prefix (the feed sees the whole keyspace): e.g. the compaction key. */
  onOtherEvent(event: WatchEvent): void;
  /** How long etcd may take to accept a watch. */
  readonly createTimeoutMs: number;
  /** How long the feed keeps trying to resume after its stream failed before it ends every watch. */
  readonly resumeTimeoutMs: number;
}

type State = 'starting' | 'catching-up' | 'live' | 'done';

interface Watcher {
  readonly prefix: string;
  readonly handlers: KVWatchHandlers;
  state: State;
  /** Every event under the prefix with a revision at or below this one has been handed to the watcher. */
  last: number;
  /** The highest revision the watcher has been told about (events or progress). */
  notified: number;
  buffer: KVEvent[];
  /** Catching up: its own stream replays through `target`, the feed revision when it was admitted. */
  target: number;
  catchUp?: EtcdWatchHandle;
  /** Catching up: the feed's events after `target`, held until the replay reaches `target`. */
  pending: KVEvent[];
}

const allKeys = Buffer.from([0]);
const resumeDelayMs = 200;

/**
 * The watches of one etcd store, all fed by ONE etcd watch of the whole keyspace (with previous values).
 *
 * Why the whole keyspace: a single etcd watcher receives every event of its range in revision order, and every etcd
 * revision is the revision of at least one event; so watching everything, the feed knows after each response that all
 * events up to that revision have arrived — exact progress for every KV watch, whatever prefix the latest write
 * touched (another resource, the compaction key). That is what a "most recent" read needs to be served from a watch
 * cache that is current even when the write went through another kapi instance. etcd's own answer, progress requests,
 * is not usable on etcd 3.4 before 3.4.31: the notification can overtake events still queued for the watcher
 * (etcd-io/etcd#15220; kube-apiserver only serves consistent reads from its cache on fixed versions). The cost is the
 * events of keys outside the prefix when etcd is shared with other users.
 *
 * A KV watch from the feed's revision or later is served by the feed directly. One from an older revision first
 * replays on an etcd watch of its own from that revision (again the whole keyspace, so it knows when it has reached
 * the feed's revision), while the feed holds the newer events for it; then it joins the feed. Deliveries are batched
 * per microtask, in revision order, with no gaps; progress goes to watchers whose revision advanced without events.
 *
 * When the feed's stream fails (a member went away), it resumes from the next revision on another member; if etcd
 * stays unreachable for `resumeTimeoutMs`, every watch ends with an error and the watch caches re-list.
 */
export class EtcdWatchFeed {
  private readonly watchers = new Set<Watcher>();
  private readonly dirty = new Set<Watcher>();
  private flushScheduled = false;
  /** Every event up to this revision has been routed (-1: the feed is not running). */
  private rev = -1;
  private starting = false;
  private stream?: EtcdWatchHandle;
  /** While resuming: when to give up. */
  private resumeDeadline = 0;
  private resumeTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly src: FeedSource) {}

  watch(prefix: string, afterRevision: number, handlers: KVWatchHandlers): KVWatch {
    const w: Watcher = {
      prefix,
      handlers,
      state: 'starting',
      last: Math.max(0, Math.floor(afterRevision || 0)),
      notified: -1,
      buffer: [],
      target: 0,
      pending: [],
    };
    const cancel = { cancel: () => this.end(w) };
    if (this.closed) {
      queueMicrotask(() => this.fail(w, storageClosed()));
      return cancel;
    }
    this.watchers.add(w);
    if (this.rev >= 0) this.admit(w);
    else this.start();
    return cancel;
  }

  close(): void {
    this.closed = true;
    this.failAll(storageClosed());
  }

  /** Starts the feed at etcd's current revision, then admits the watchers that waited for it. */
  private start(): void {
    if (this.starting) return;
    this.starting = true;
    this.src.currentRevision().then(
      (revision) => {
        this.starting = false;
        if (this.closed || this.watchers.size === 0) return;
        this.rev = revision;
        this.openFeed();
        for (const w of [...this.watchers]) if (w.state === 'starting') this.admit(w);
      },
      (err: unknown) => {
        this.starting = false;
        this.failAll(toApiError(err));
      },
    );
  }

  private openFeed(): void {
    this.stream = openEtcdWatch(
      this.src.client,
      this.request(this.rev + 1),
      {
        onCreated: () => {
          this.resumeDeadline = 0;
        },
        onEvents: (events) => this.onFeedEvents(events),
        onEnd: (err, compacted) => this.onFeedEnd(err, compacted),
      },
      this.src.createTimeoutMs,
    );
  }

  private request(startRevision: number): WatchCreateRequest {
    return { key: allKeys, rangeEnd: allKeys, startRevision, prevKv: true };
  }

  private onFeedEnd(err: Error, compacted?: number): void {
    this.stream = undefined;
    if (this.closed || this.rev < 0) return;
    if (compacted !== undefined) {
      this.src.onCompacted(compacted);
      this.failAll(new CompactedError(this.rev + 1, compacted));
      return;
    }
    const now = Date.now();
    if (this.resumeDeadline === 0) this.resumeDeadline = now + this.src.resumeTimeoutMs;
    if (now + resumeDelayMs >= this.resumeDeadline) {
      this.failAll(toApiError(err));
      return;
    }
    // Resume from the next revision: the feed has routed every event up to `rev`, so nothing is lost or repeated.
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = undefined;
      if (!this.closed && this.rev >= 0 && !this.stream) this.openFeed();
    }, resumeDelayMs);
  }

  private onFeedEvents(events: WatchEvent[]): void {
    const through = events[events.length - 1]!.kv.modRevision;
    if (through <= this.rev) return;
    for (const ev of events) {
      const revision = ev.kv.modRevision;
      if (revision <= this.rev) continue;
      const e = toKVEvent(this.src.keys, ev);
      if (!e) {
        this.src.onOtherEvent(ev);
        continue;
      }
      for (const w of this.watchers) {
        if (!hasPrefix(e.kv.key, w.prefix)) continue;
        if (w.state === 'live' && revision > w.last) {
          w.buffer.push(e);
          this.dirty.add(w);
        } else if (w.state === 'catching-up' && revision > w.target) {
          w.pending.push(e);
        }
      }
    }
    this.rev = through;
    for (const w of this.watchers) {
      if (w.state === 'live' && w.last < through) {
        w.last = through;
        this.dirty.add(w);
      }
    }
    this.scheduleFlush();
  }

  /** A watcher joins the running feed: directly when it starts at or after the feed's revision, else after a replay. */
  private admit(w: Watcher): void {
    if (w.last >= this.rev) {
      w.state = 'live';
      // The caught-up notification (a watcher from a future revision gets it once the feed passes that revision).
      if (w.last === this.rev) this.dirty.add(w);
      this.scheduleFlush();
      return;
    }
    const compacted = this.src.compactedRevision();
    if (w.last < compacted) {
      queueMicrotask(() => this.fail(w, new CompactedError(w.last + 1, compacted)));
      return;
    }
    w.state = 'catching-up';
    w.target = this.rev;
    w.catchUp = openEtcdWatch(
      this.src.client,
      this.request(w.last + 1),
      {
        onEvents: (events) => this.onCatchUpEvents(w, events),
        onEnd: (err, compacted) => {
          if (compacted !== undefined) this.src.onCompacted(compacted);
          this.fail(w, compacted !== undefined ? new CompactedError(w.last + 1, compacted) : toApiError(err));
        },
      },
      this.src.createTimeoutMs,
    );
  }

  private onCatchUpEvents(w: Watcher, events: WatchEvent[]): void {
    if (w.state !== 'catching-up') return;
    for (const ev of events) {
      const revision = ev.kv.modRevision;
      if (revision <= w.last || revision > w.target) continue;
      const e = toKVEvent(this.src.keys, ev);
      if (e && hasPrefix(e.kv.key, w.prefix)) w.buffer.push(e);
    }
    const reached = events[events.length - 1]!.kv.modRevision;
    w.last = Math.min(reached, w.target);
    if (reached >= w.target) {
      // Replayed through the feed's revision at admission: hand over to the feed, with the events it held meanwhile.
      w.catchUp?.cancel();
      w.catchUp = undefined;
      w.buffer.push(...w.pending);
      w.pending = [];
      w.last = this.rev;
      w.state = 'live';
    }
    this.dirty.add(w);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.dirty.size === 0) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = [...this.dirty];
    this.dirty.clear();
    for (const w of batch) {
      if (w.state === 'done') continue;
      if (w.buffer.length > 0) {
        const events = w.buffer;
        w.buffer = [];
        w.notified = Math.max(w.notified, events[events.length - 1]!.kv.modRevision);
        try {
          w.handlers.onEvents(events);
        } catch (err) {
          // A handler that throws ends its own watch; it must not break the feed or other watchers.
          this.fail(w, err instanceof Error ? err : new Error(String(err)));
          continue;
        }
      }
      // Progress: the watcher's revision moved past what it was told, without events of its own (at admission:
      // the caught-up notification). Never beyond the feed's revision (a watch from a future revision waits).
      if (w.state === 'live' && w.last > w.notified && w.last <= this.rev) {
        w.notified = w.last;
        try {
          w.handlers.onProgress?.(w.last);
        } catch (err) {
          this.fail(w, err instanceof Error ? err : new Error(String(err)));
        }
      }
    }
  }

  private end(w: Watcher): void {
    if (w.state === 'done') return;
    w.state = 'done';
    w.catchUp?.cancel();
    w.catchUp = undefined;
    w.buffer = [];
    w.pending = [];
    this.watchers.delete(w);
    this.dirty.delete(w);
    if (this.watchers.size === 0) this.stop();
  }

  private fail(w: Watcher, err: Error): void {
    if (w.state === 'done') return;
    this.end(w);
    try {
      w.handlers.onError(err);
    } catch {
      // The watch is over; an error handler that throws has nowhere left to report to.
    }
  }

  private failAll(err: Error): void {
    for (const w of [...this.watchers]) this.fail(w, err);
    this.stop();
  }

  /** No watchers left (or the feed failed): stop the feed; the next watch starts it again at the current revision. */
  private stop(): void {
    this.stream?.cancel();
    this.stream = undefined;
    clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
    this.resumeDeadline = 0;
    this.rev = -1;
  }
}
