export type WatchEventLabels = { group: string; version: string; resource: string };

/**
 * apiserver_watch_events_total and apiserver_watch_events_sizes of one group, version and resource, shared by all its
 * watches and counted in plain numbers: they are counted per watcher and per event, the fan-out's hot path, where
 * prom-client's inc() and observe() would hash the labels on every call. The metrics read them when scraped.
 */
export class WatchEventCounter {
  /** Events sent, and the sum of their sizes in bytes. */
  events = 0;
  bytes = 0;
  /** Events per size bucket (not cumulative): `[i]` ≤ upperBounds[i], the last one above every bound. */
  readonly perBucket: number[];

  constructor(
    readonly labels: Readonly<WatchEventLabels>,
    private readonly upperBounds: readonly number[],
  ) {
    this.perBucket = new Array<number>(upperBounds.length + 1).fill(0);
  }

  count(bytes: number): void {
    this.events++;
    this.bytes += bytes;
    let i = 0;
    while (i < this.upperBounds.length && bytes > this.upperBounds[i]!) i++;
    this.perBucket[i]!++;
  }
}
