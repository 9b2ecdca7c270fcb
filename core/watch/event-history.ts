import type { CacheEvent } from './cache-event.js';

interface Entry {
  event: CacheEvent;
  /** When the cache received it (ms since epoch). */
  at: number;
  /** What it weighs: the size of the object as stored. */
  bytes: number;
}

/**
 * The recent events of one watch cache, oldest first: a watch that starts at a resourceVersion replays what follows it
 * from here. Bounded by a time window, a count and a weight in bytes (the newest event stays, whatever it weighs);
 * `startRevision` says how far back it is complete.
 */
export class EventHistory {
  private entries: Entry[] = [];
  /** Index of the oldest live entry (dropping from the front is a pointer move; the array is compacted now and then). */
  private head = 0;
  private bytes = 0;

  constructor(
    /** Every event with a revision above this one is in the history. */
    private start: number,
    private readonly maxEvents: number,
    private readonly windowMs: number,
    private readonly maxBytes: number,
  ) {}

  get startRevision(): number {
    return this.start;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  append(event: CacheEvent, bytes: number, now = Date.now()): void {
    this.entries.push({ event, at: now, bytes });
    this.bytes += bytes;
    while (this.size > this.maxEvents || (this.bytes > this.maxBytes && this.size > 1)) this.dropOldest();
  }

  /** Drops events older than the window. */
  trim(now = Date.now()): void {
    while (this.size > 0 && now - this.entries[this.head]!.at > this.windowMs) this.dropOldest();
  }

  /** The events after `revision`, oldest first; undefined when the history no longer reaches back that far. */
  since(revision: number): CacheEvent[] | undefined {
    if (revision < this.start) return undefined;
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.event.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    const out: CacheEvent[] = [];
    for (let i = lo; i < this.entries.length; i++) out.push(this.entries[i]!.event);
    return out;
  }

  /** Forgets everything: the history is complete only after `revision` (used when the cache reloads). */
  reset(revision: number): void {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    this.start = revision;
  }

  private dropOldest(): void {
    this.start = this.entries[this.head]!.event.revision;
    this.bytes -= this.entries[this.head]!.bytes;
    this.entries[this.head] = undefined as unknown as Entry;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
