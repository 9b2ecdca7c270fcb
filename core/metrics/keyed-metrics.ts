import type { Metric, Registry } from 'prom-client';

type Labels = Record<string, string>;

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  /** Written after `labels` (prom-client's histograms put `le` first). */
  sharedLabels?: Labels;
  metricName?: string;
}

/**
 * The counters and histograms of the request path (one observation per request or storage call): a series is found
 * by a key its caller builds once, and an observation is an addition. prom-client's own metrics hash a label object
 * and validate it on every observation, which cost more than the rest of a metrics filter. They answer a scrape
 * through prom-client's collector protocol (`get()`), so the registry formats them like its own.
 */
abstract class KeyedMetric<S> {
  protected readonly series = new Map<string, { labels: Labels; state: S }>();
  readonly aggregator = 'sum';

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of `labels`, created on first use; `key` must identify the labels. */
  protected seriesState(key: string, labels: Labels): S {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels, state: this.initialState() }));
    return s.state;
  }

  protected abstract initialState(): S;
  protected abstract values(labels: Labels, state: S): MetricValue[];

  /** What a text scrape reads (the registry prefers it to `get()`). */
  async getForPromString(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    const values: MetricValue[] = [];
    for (const { labels, state } of this.series.values()) values.push(...this.values(labels, state));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** What a JSON scrape reads: every value with all its labels. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    const metric = await this.getForPromString();
    const values = metric.values.map(({ sharedLabels, ...v }) => ({ ...v, labels: { ...sharedLabels, ...v.labels } }));
    return { ...metric, values };
  }
}

export class KeyedCounter extends KeyedMetric<{ value: number }> {
  constructor(registry: Registry, name: string, help: string) {
    super(registry, name, help, 'counter');
  }

  /** The series' counter, to keep and increment without a lookup. */
  child(key: string, labels: Labels): { inc(): void } {
    const state = this.seriesState(key, labels);
    return { inc: () => void state.value++ };
  }

  protected initialState(): { value: number } {
    return { value: 0 };
  }

  protected values(labels: Labels, state: { value: number }): MetricValue[] {
    return [{ value: state.value, labels }];
  }
}

interface HistogramState {
  /** Observations per bucket (not cumulative); the last is +Inf's. */
  buckets: number[];
  sum: number;
  count: number;
}

export class KeyedHistogram extends KeyedMetric<HistogramState> {
  constructor(
    registry: Registry,
    name: string,
    help: string,
    private readonly upperBounds: readonly number[],
  ) {
    super(registry, name, help, 'histogram');
  }

  /** The series' histogram, to keep and observe without a lookup. */
  child(key: string, labels: Labels): { observe(value: number): void } {
    const state = this.seriesState(key, labels);
    const bounds = this.upperBounds;
    return {
      observe(value: number) {
        let i = 0;
        while (i < bounds.length && value > bounds[i]!) i++;
        state.buckets[i]!++;
        state.sum += value;
        state.count++;
      },
    };
  }

  protected initialState(): HistogramState {
    return { buckets: new Array<number>(this.upperBounds.length + 1).fill(0), sum: 0, count: 0 };
  }

  protected values(labels: Labels, state: HistogramState): MetricValue[] {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    const values: MetricValue[] = this.upperBounds.map((le, i) => {
      cumulative += state.buckets[i]!;
      return { value: cumulative, labels: { le }, sharedLabels: labels, metricName: bucket };
    });
    values.push(
      { value: state.count, labels: { le: '+Inf' }, sharedLabels: labels, metricName: bucket },
      { value: state.sum, labels, metricName: `${this.name}_sum` },
      { value: state.count, labels, metricName: `${this.name}_count` },
    );
    return values;
  }
}
