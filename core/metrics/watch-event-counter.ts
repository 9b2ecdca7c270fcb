import type { Registry } from 'prom-client';
import { KeyedCounter, KeyedHistogram } from './keyed-metrics.js';

/** kube's watch event size buckets: 1 KiB to 128 KiB, doubling. */
const watchEventSizeBuckets = Array.from({ length: 8 }, (_, i) => 1024 * 2 ** i);

/** What a watch counts each event it sends into: apiserver_watch_events_total and apiserver_watch_events_sizes. */
export interface WatchEventCounter {
  count(bytes: number): void;
}

/**
 * kube's apiserver_watch_events_total and apiserver_watch_events_sizes, by group, version and resource. Counted per
 * watcher and per event — the fan-out's hot path — so every watch of a resource shares its series' children.
 */
export class WatchEventMetrics {
  private readonly total: KeyedCounter;
  private readonly sizes: KeyedHistogram;
  private readonly counters = new Map<string, WatchEventCounter>();

  constructor(registry: Registry) {
    this.total = new KeyedCounter(registry, 'apiserver_watch_events_total', '[ALPHA] Watch events sent to clients.');
    this.sizes = new KeyedHistogram(registry, 'apiserver_watch_events_sizes', '[ALPHA] Sizes of the watch events sent to clients, in bytes.', watchEventSizeBuckets);
  }

  /** The counter of a group, version and resource's watch events (one for all its watches). */
  counter(group: string, version: string, resource: string): WatchEventCounter {
    const key = `${group}/${version}/${resource}`;
    let counter = this.counters.get(key);
    if (!counter) {
      const labels = { group, version, resource };
      const events = this.total.child(key, labels);
      const sizes = this.sizes.child(key, labels);
      counter = {
        count(bytes: number) {
          events.inc();
          sizes.observe(bytes);
        },
      };
      this.counters.set(key, counter);
    }
    return counter;
  }
}
