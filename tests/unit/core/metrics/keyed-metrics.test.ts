import test from 'ava';
import { Counter, Histogram, Registry } from 'prom-client';
import { KeyedCounter, KeyedHistogram } from '../../../../core/metrics/keyed-metrics.js';

const buckets = [0.005, 0.025, 0.1];
const observations: [labels: { verb: string; code: string }, seconds: number][] = [
  [{ verb: 'GET', code: '200' }, 0.001],
  [{ verb: 'GET', code: '200' }, 0.025],
  [{ verb: 'GET', code: '404' }, 0.03],
  [{ verb: 'POST', code: '201' }, 7],
  [{ verb: 'GET', code: '200' }, 0.005],
];

test('a scrape of keyed metrics reads exactly as prom-client\'s own counter and histogram with the same observations', async (t) => {
  const ours = new Registry();
  const counter = new KeyedCounter(ours, 'requests_total', 'Requests.');
  const histogram = new KeyedHistogram(ours, 'request_seconds', 'Latency.', buckets);
  const theirs = new Registry();
  const promCounter = new Counter({ name: 'requests_total', help: 'Requests.', labelNames: ['verb', 'code'], registers: [theirs] });
  const promHistogram = new Histogram({ name: 'request_seconds', help: 'Latency.', labelNames: ['verb', 'code'], buckets, registers: [theirs] });
  for (const [labels, seconds] of observations) {
    const key = `${labels.verb}|${labels.code}`;
    counter.child(key, labels).inc();
    histogram.child(key, labels).observe(seconds);
    promCounter.inc(labels);
    promHistogram.observe(labels, seconds);
  }
  t.is(await ours.metrics(), await theirs.metrics());
  t.regex(await ours.metrics(), /request_seconds_bucket\{le="0.025",verb="GET",code="200"\} 3\n/);
  t.regex(await ours.metrics(), /request_seconds_bucket\{le="\+Inf",verb="POST",code="201"\} 1\n/);
  const json = (registry: Registry) => registry.getMetricsAsJSON().then((ms) => ms.map((m) => ({ ...m, values: m.values.map((v) => ({ value: v.value, labels: { ...v.labels }, metricName: (v as { metricName?: string }).metricName })) })));
  t.deepEqual(await json(ours), await json(theirs));
});

test('a child kept by its key counts into the same series as a new child of that key', async (t) => {
  const registry = new Registry();
  const counter = new KeyedCounter(registry, 'things_total', 'Things.');
  const kept = counter.child('a', { kind: 'a' });
  kept.inc();
  counter.child('a', { kind: 'a' }).inc();
  kept.inc();
  t.regex(await registry.metrics(), /^things_total\{kind="a"\} 3$/m);
});
