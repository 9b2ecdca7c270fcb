import type { Counter, Histogram } from 'prom-client';

/** One watch's share of apiserver_watch_events_total and apiserver_watch_events_sizes, its labels bound once. */
export class WatchEventCounter {
  private readonly events: { inc(): void };
  private readonly sizes: { observe(bytes: number): void };

  constructor(events: Counter<'group' | 'version' | 'resource'>, sizes: Histogram<'group' | 'version' | 'resource'>, labels: { group: string; version: string; resource: string }) {
    this.events = events.labels(labels);
    this.sizes = sizes.labels(labels);
  }

  count(bytes: number): void {
    this.events.inc();
    this.sizes.observe(bytes);
  }
}
