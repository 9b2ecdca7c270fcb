import { CompactedError, type KVEvent, type KVWatch, type KVWatchHandlers } from '../../core/contracts/kv-store.js';
import { hasPrefix } from './keys.js';

/** What a revision-log engine exposes to its {@link WatchHub}. All calls are synchronous. */
export interface WatchEventSource {
  /**
   * Events for keys under `prefix` with a revision in `(afterRevision, through]`, in revision order, where `through` is
   * at most `afterRevision + maxRevisions` and at most the current revision (and never below `afterRevision`).
   * Every event under the prefix in that window must be returned.
   */
  readEvents(prefix: string, afterRevision: number, maxRevisions: number): { events: KVEvent[]; through: number };
  currentRevision(): number;
  compactedRevision(): number;
}

interface Watcher {
  readonly prefix: string;
  readonly handlers: KVWatchHandlers;
  /** Every event with a revision <= `last` has been handed to this watcher (delivered or buffered). */
  last: number;
  live: boolean;
  done: boolean;
  buffer: KVEvent[];
  /** Commits outside the prefix happened since the last delivery: tell the watcher (if it listens for progress). */
  progressed: boolean;
}

/**
 * Fans committed events out to watchers of one store.
 *
 * A new watcher first catches up from the store's log in chunks (one chunk per macrotask so a long replay does not
 * starve other work). The catch-up step that reaches the current revision switches the watcher to live within the
 * same synchronous section, so no commit can fall between replay and live: afterwards the store calls
 * {@link publish} synchronously after each commit and the watcher receives exactly the events newer than what it has
 * seen, batched per microtask. A watcher with `onProgress` is also told, in the same batches, when commits outside its
 * prefix advance the revision (what etcd's progress notifications give a watch cache for consistent reads).
 */
export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private readonly live = new Set<Watcher>();
  private readonly dirty = new Set<Watcher>();
  private flushScheduled = false;
  private closed = false;

  constructor(
    private readonly source: WatchEventSource,
    private readonly replayChunk = 1000,
  ) {}

  watch(prefix: string, afterRevision: number, handlers: KVWatchHandlers): KVWatch {
    const w: Watcher = {
      prefix,
      handlers,
      last: Math.max(0, Math.floor(afterRevision || 0)),
      live: false,
      done: false,
      buffer: [],
      progressed: false,
    };
    if (this.closed) {
      queueMicrotask(() => this.fail(w, new Error('storage is closed')));
      return { cancel: () => this.end(w) };
    }
    this.watchers.add(w);
    setImmediate(() => this.replayStep(w));
    return { cancel: () => this.end(w) };
  }

  /** Called by the store synchronously right after committing the write that produced `event`. */
  publish(event: KVEvent): void {
    if (this.live.size === 0) return;
    const rev = event.kv.modRevision;
    const key = event.kv.key;
    for (const w of this.live) {
      if (rev <= w.last) continue;
      w.last = rev;
      if (hasPrefix(key, w.prefix)) {
        w.buffer.push(event);
        this.dirty.add(w);
      } else if (w.handlers.onProgress) {
        w.progressed = true;
        this.dirty.add(w);
      }
    }
    if (this.dirty.size > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** End every watch with an error (the store is closing). */
  close(): void {
    this.closed = true;
    for (const w of [...this.watchers]) this.fail(w, new Error('storage is closed'));
  }

  get size(): number {
    return this.watchers.size;
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = [...this.dirty];
    this.dirty.clear();
    for (const w of batch) {
      if (w.done) continue;
      const progressed = w.progressed;
      w.progressed = false;
      if (w.buffer.length > 0) {
        const events = w.buffer;
        w.buffer = [];
        this.deliver(w, events);
      }
      if (progressed && !w.done) this.progress(w, w.last);
    }
  }

  private replayStep(w: Watcher): void {
    if (w.done) return;
    const compacted = this.source.compactedRevision();
    if (w.last < compacted) {
      this.fail(w, new CompactedError(w.last + 1, compacted));
      return;
    }
    let res: { events: KVEvent[]; through: number };
    try {
      res = this.source.readEvents(w.prefix, w.last, this.replayChunk);
    } catch (err) {
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    const through = Math.max(w.last, res.through);
    w.last = through;
    const caughtUp = through >= this.source.currentRevision();
    if (caughtUp) {
      // From here on every commit reaches this watcher through publish(); none can have happened since readEvents.
      w.live = true;
      this.live.add(w);
    }
    if (res.events.length > 0) this.deliver(w, res.events);
    if (w.done) return;
    if (caughtUp) {
      this.progress(w, through);
    } else {
      setImmediate(() => this.replayStep(w));
    }
  }

  private deliver(w: Watcher, events: KVEvent[]): void {
    try {
      w.handlers.onEvents(events);
    } catch (err) {
      // A handler that throws ends its own watch; it must not break the store or other watchers.
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Progress notification: the watcher has seen everything up to `revision` (events of its prefix included). */
  private progress(w: Watcher, revision: number): void {
    if (!w.handlers.onProgress) return;
    try {
      w.handlers.onProgress(revision);
    } catch (err) {
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private end(w: Watcher): void {
    if (w.done) return;
    w.done = true;
    w.buffer = [];
    this.watchers.delete(w);
    this.live.delete(w);
    this.dirty.delete(w);
  }

  private fail(w: Watcher, err: Error): void {
    if (w.done) return;
    this.end(w);
    try {
      w.handlers.onError(err);
    } catch {
      // The watch is already over; an error handler that throws has nowhere left to report to.
    }
  }
}
