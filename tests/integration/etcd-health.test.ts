/** kapi's etcd health checks load etcd with one probe a second, however often /livez and /readyz are polled. */
import test from 'ava';
import { startEtcd } from '../helpers/etcd-process.js';
import { startTestServer } from '../helpers/test-server.js';

/** etcd's count of Range calls it has handled (health probes are ranges), from its Prometheus metrics. */
async function rangesHandled(endpoint: string): Promise<number> {
  const text = await (await fetch(`${endpoint}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('grpc_server_handled_total{') && line.includes('grpc_method="Range"')) total += Number(line.split(' ').pop());
  }
  return total;
}

/** Resolves once `count` stays the same for half a second (at most 20 s). */
async function settled(count: () => Promise<number>): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = await count();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await count();
    if (now === last) return;
    last = now;
  }
}

test('polling /livez and /readyz many times a second costs etcd one probe a second', async (t) => {
  const etcd = await startEtcd();
  t.teardown(() => etcd.close());
  const server = await startTestServer({ storage: 'etcd', etcd: { endpoints: etcd.endpoints } });
  t.teardown(() => server.close());
  const endpoint = etcd.endpoints[0]!;
  t.is((await server.request('GET', '/readyz')).status, 200);
  // the server's own start-up reads (watch caches listing, RBAC's bootstrap) are over before the count starts
  await settled(() => rangesHandled(endpoint));

  const before = await rangesHandled(endpoint);
  const started = Date.now();
  for (let i = 0; i < 10; i++) {
    const answers = await Promise.all(['/readyz', '/livez', '/healthz', '/readyz/etcd-readiness'].map((p) => server.request('GET', p)));
    t.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200]);
  }
  const elapsedSeconds = (Date.now() - started) / 1000;
  const probes = (await rangesHandled(endpoint)) - before;
  // 50 etcd checks were answered; without sharing each would have been a probe.
  t.true(probes <= Math.ceil(elapsedSeconds) + 2, `${probes} probes in ${elapsedSeconds.toFixed(2)} s`);

  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const again = await rangesHandled(endpoint);
  t.is((await server.request('GET', '/readyz/etcd')).status, 200);
  t.is((await rangesHandled(endpoint)) - again, 1, 'a second later, a check probes etcd again');
});
