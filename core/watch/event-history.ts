import type { CacheEvent, EventHolder } from './cache-event.js';

/**
 * The recent events of one watch cache, oldest first: a watch that starts at a resourceVersion replays what follows it
 * from here. Bounded by a time window, a count and a weight in bytes (the newest event stays, whatever it weighs);
 * `startRevision` says how far back it is complete.
 *
 * Each event's arrival time and weight sit in arrays beside it, and the history itself is every event's holder: no
 * object per event besides the event (a history holds every object written in the last 5 minutes).
 */
export class EventHistory implements EventHolder {
  private events: CacheEvent[] = [];
  /** When the cache received each event (ms since epoch). */
  private times: number[] = [];
  /** What each event weighs: its object, and the encodings memoized on it since. */
  private weights: number[] = [];
  /** Index of the oldest live event (dropping from the front is a pointer move; the arrays are compacted now and then). */
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
    return this.events.length - this.head;
  }

  /** Appends `event`, weighing `bytes`; what is memoized on it later (its encodings) is added to its weight. */
  append(event: CacheEvent, bytes: number, now = Date.now()): void {
    this.events.push(event);
    this.times.push(now);
    this.weights.push(0);
    event.holder = this;
    this.grow(this.events.length - 1, bytes);
  }

  /** More bytes memoized on `event`: they count while the history keeps it (an event dropped from it weighs nothing). */
  weigh(event: CacheEvent, bytes: number): void {
    const i = this.indexAfter(event.revision - 1);
    if (this.events[i] === event) this.grow(i, bytes);
  }

  private grow(i: number, bytes: number): void {
    this.weights[i]! += bytes;
    this.bytes += bytes;
    while (this.size > this.maxEvents || (this.bytes > this.maxBytes && this.size > 1)) this.dropOldest();
  }

  /** Drops events older than the window. */
  trim(now = Date.now()): void {
    while (this.size > 0 && now - this.times[this.head]! > this.windowMs) this.dropOldest();
  }

  /** The events after `revision`, oldest first; undefined when the history no longer reaches back that far. */
  since(revision: number): CacheEvent[] | undefined {
    if (revision < this.start) return undefined;
    return this.events.slice(this.indexAfter(revision));
  }

  /** Forgets everything: the history is complete only after `revision` (used when the cache reloads). */
  reset(revision: number): void {
    this.events = [];
    this.times = [];
    this.weights = [];
    this.head = 0;
    this.bytes = 0;
    this.start = revision;
  }

  /** The index of the first live event with a revision above `revision` (the end when there is none). */
  private indexAfter(revision: number): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private dropOldest(): void {
    this.start = this.events[this.head]!.revision;
    this.bytes -= this.weights[this.head]!;
    this.events[this.head] = undefined as unknown as CacheEvent;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.times = this.times.slice(this.head);
      this.weights = this.weights.slice(this.head);
      this.head = 0;
    }
  }
}
