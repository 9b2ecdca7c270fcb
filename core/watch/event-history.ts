import type { CacheEvent } from './cache-event.js';

interface Entry {
  event: CacheEvent;
  /** When the cache received it (ms since epoch). */
  at: number;
  /** What it weighs: its object, and the encodings memoized on it since. */
  bytes: number;
  /** Still in the history (an event dropped from it may still be fanned out, and encoded, for a while). */
  kept: boolean;
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

  /** Appends `event`, weighing `bytes`; what is memoized on it later (its encodings) is added to its weight. */
  append(event: CacheEvent, bytes: number, now = Date.now()): void {
    const entry: Entry = { event, at: now, bytes: 0, kept: true };
    this.entries.push(entry);
    event.weigh = (more) => {
      if (entry.kept) this.grow(entry, more);
    };
    this.grow(entry, bytes);
  }

  private grow(entry: Entry, bytes: number): void {
    entry.bytes += bytes;
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
    for (let i = this.head; i < this.entries.length; i++) this.entries[i]!.kept = false;
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    this.start = revision;
  }

  private dropOldest(): void {
    const oldest = this.entries[this.head]!;
    this.start = oldest.event.revision;
    this.bytes -= oldest.bytes;
    oldest.kept = false;
    this.entries[this.head] = undefined as unknown as Entry;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
