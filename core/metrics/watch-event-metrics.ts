import { Counter, Histogram, type Registry } from 'prom-client';
import { WatchEventCounter, type WatchEventLabels } from './watch-event-counter.js';

type WatchLabel = keyof WatchEventLabels;
const watchLabels: readonly WatchLabel[] = ['group', 'version', 'resource'];
/** kube's watch event size buckets: 1 KiB to 128 KiB, doubling. */
const watchEventSizeBuckets = Array.from({ length: 8 }, (_, i) => 1024 * 2 ** i);

/**
 * kube's apiserver_watch_events_total and apiserver_watch_events_sizes, read at scrape time from one plain
 * WatchEventCounter per group, version and resource, which every watch of it counts its events into.
 */
export class WatchEventMetrics {
  private readonly counters = new Map<string, WatchEventCounter>();

  constructor(registry: Registry) {
    const counters = this.counters;
    new Counter({
      name: 'apiserver_watch_events_total',
      help: '[ALPHA] Watch events sent to clients.',
      labelNames: watchLabels,
      registers: [registry],
      collect() {
        this.reset();
        for (const c of counters.values()) this.inc(c.labels, c.events);
      },
    });
    new CountedSizes(registry, counters);
  }

  /** The counter of a group, version and resource's watch events (one for all its watches). */
  counter(group: string, version: string, resource: string): WatchEventCounter {
    const key = `${group}/${version}/${resource}`;
    let counter = this.counters.get(key);
    if (!counter) this.counters.set(key, (counter = new WatchEventCounter({ group, version, resource }, watchEventSizeBuckets)));
    return counter;
  }
}

type HistogramObject = Awaited<ReturnType<Histogram<WatchLabel>['get']>>;

/**
 * apiserver_watch_events_sizes: a prom-client histogram in name, type and buckets, whose samples are the counters'
 * bucket counts (prom-client has no way to add counted observations, so its own observe() is not used).
 */
class CountedSizes extends Histogram<WatchLabel> {
  private static readonly metricName = 'apiserver_watch_events_sizes';
  private static readonly helpText = '[ALPHA] Sizes of the watch events sent to clients, in bytes.';

  constructor(
    registry: Registry,
    private readonly counters: Map<string, WatchEventCounter>,
  ) {
    super({ name: CountedSizes.metricName, help: CountedSizes.helpText, labelNames: watchLabels, buckets: watchEventSizeBuckets, registers: [registry] });
  }

  override async get(): Promise<HistogramObject> {
    return this.samples();
  }

  /** What prom-client's registry reads when it writes the text format. */
  async getForPromString(): Promise<HistogramObject> {
    return this.samples();
  }

  private samples(): HistogramObject {
    const name = CountedSizes.metricName;
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const c of this.counters.values()) {
      let cumulative = 0;
      watchEventSizeBuckets.forEach((le, i) => {
        cumulative += c.perBucket[i]!;
        values.push({ labels: { ...c.labels, le }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { ...c.labels, le: '+Inf' }, value: c.events, metricName: `${name}_bucket` });
      values.push({ labels: { ...c.labels }, value: c.bytes, metricName: `${name}_sum` });
      values.push({ labels: { ...c.labels }, value: c.events, metricName: `${name}_count` });
    }
    // prom-client's declared object type differs from what its histograms return (`type` is a string there too).
    return { name, help: CountedSizes.helpText, type: 'histogram', aggregator: 'sum', values } as unknown as HistogramObject;
  }
}
