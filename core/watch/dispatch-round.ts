import type { CacheEvent } from './cache-event.js';
import type { CacheWatcher } from './cache-watcher.js';

/**
 * One pass of the watch cache's fan-out over the watchers that existed when it began. Events that arrive while it is
 * under way join it, so the watchers it has not reached yet get them now and not a whole pass later: a watcher's
 * latency is at most one pass, not two. Watchers that are at the same point of the same prefix are handed the same
 * array, whose encoding is then shared (see batchEncodedOnce).
 */
export class DispatchRound {
  /** Index of the next watcher to serve. */
  private next = 0;
  /** The events each watcher is handed, by prefix and by the last revision it has (a watcher's `last`). */
  private batches = new Map<string, Map<number, readonly CacheEvent[]>>();

  constructor(
    private readonly events: CacheEvent[],
    /** The cache revision when the round began: once it ends, every watcher has everything up to here. */
    readonly upTo: number,
    private readonly watchers: readonly CacheWatcher[],
  ) {}

  get done(): boolean {
    return this.next >= this.watchers.length;
  }

  /** An event that arrived while the round is under way: for the watchers it has not served yet. */
  add(event: CacheEvent): void {
    this.events.push(event);
    this.batches = new Map(); // batches already handed out stay as they are: they are never mutated
  }

  /** Serves the next `count` watchers, skipping those no longer `watching`. */
  serveNext(count: number, watching: ReadonlySet<CacheWatcher>): void {
    const end = Math.min(this.next + count, this.watchers.length);
    while (this.next < end) {
      const w = this.watchers[this.next++]!;
      if (watching.has(w)) this.serve(w);
    }
  }

  /** Hands a watcher the round's events under its prefix that it has not seen. */
  private serve(w: CacheWatcher): void {
    let byLast = this.batches.get(w.keyPrefix);
    if (!byLast) this.batches.set(w.keyPrefix, (byLast = new Map()));
    let batch = byLast.get(w.last);
    if (!batch) byLast.set(w.last, (batch = this.events.filter((e) => e.revision > w.last && e.key.startsWith(w.keyPrefix))));
    if (!batch.length) return;
    w.last = batch[batch.length - 1]!.revision;
    w.deliver(batch);
  }
}
