import test from 'ava';
import { Registry } from 'prom-client';
import { KeyedHistogram } from '../../../../core/metrics/keyed-metrics.js';
import { instrumentedKVStore, objectType } from '../../../../core/metrics/instrumented-kv-store.js';
import { MemoryKV } from '../../../../plugins/storage/memory/memory-kv.js';

test('the object type is kube\'s group-resource, read from the key layout', (t) => {
  t.is(objectType('/registry/configmaps/default/app'), 'configmaps');
  t.is(objectType('/registry/namespaces/default'), 'namespaces');
  t.is(objectType('/registry/example.com/widgets/default/w1'), 'widgets.example.com');
  t.is(objectType('/registry/coordination.k8s.io/leases/'), 'leases.coordination.k8s.io');
  t.is(objectType('/registry/apps/deployments/ns/d'), 'deployments.apps');
  t.is(objectType('/registry/configmaps/'), 'configmaps');
  t.is(objectType('/elsewhere/x'), '');
});

test('reads and writes are observed by operation and type; the store answers as before', async (t) => {
  const registry = new Registry();
  const duration = new KeyedHistogram(registry, 'etcd_request_duration_seconds', 'h', [0.005, 0.025]);
  const kv = instrumentedKVStore(new MemoryKV(), duration);
  const created = await kv.create('/registry/configmaps/ns/a', Buffer.from('x'));
  t.true(created.succeeded);
  t.false((await kv.create('/registry/configmaps/ns/a', Buffer.from('y'))).succeeded);
  t.is((await kv.range('/registry/configmaps/')).kvs.length, 1);
  await kv.get('/registry/example.com/widgets/ns/w');
  const values = (await registry.getMetricsAsJSON())[0]!.values as { metricName?: string; labels: Record<string, string | number>; value: number }[];
  const counts = Object.fromEntries(values.filter((v) => v.metricName === 'etcd_request_duration_seconds_count').map((v) => [`${v.labels['operation']} ${v.labels['type']}`, v.value]));
  t.deepEqual(counts, { 'create configmaps': 2, 'list configmaps': 1, 'get widgets.example.com': 1 });
  await kv.close();
});
