/**
 * kapi on etcd when etcd fails: readiness, prompt Status answers, watches ending, recovery without a restart, and no
 * acknowledged write lost — across a stop and restart of etcd, and across the loss of a 3-member cluster's leader.
 * Each test starts its own etcd (they stop it) and runs alone (timings matter).
 */
import test, { type ExecutionContext } from 'ava';
import { startEtcd, startEtcdCluster, type EtcdCluster } from '../helpers/etcd-process.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import {
  createNamespace,
  createWidget,
  expectStatus,
  installCrd,
  installWidgetsCrd,
  startTestServer,
  waitForServed,
  widget,
  widgetsPath,
  type TestResponse,
  type TestServer,
} from '../helpers/test-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serverOn(t: ExecutionContext, etcd: EtcdCluster): Promise<TestServer> {
  const server = await startTestServer({ storage: 'etcd', etcd: { endpoints: etcd.endpoints } });
  t.teardown(async () => {
    await server.close();
    await etcd.close();
  });
  await installWidgetsCrd(server);
  return server;
}

/** A failure answered while etcd is unavailable: a 503 or 504 Status, promptly. */
async function expectUnavailable(t: ExecutionContext, what: string, send: () => Promise<TestResponse>): Promise<void> {
  const started = Date.now();
  const res = await send();
  const ms = Date.now() - started;
  t.true([503, 504].includes(res.status), `${what}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  t.like(res.body, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: res.status }, `${what}: a Status`);
  t.regex(res.body?.reason ?? '', /^(ServiceUnavailable|Timeout)$/, `${what}: reason`);
  t.true(ms < 8000, `${what}: answered in ${ms} ms`);
}

/** Writers creating widgets with fresh names until `stop()`; remembers which creates were acknowledged. */
function writers(server: TestServer, ns: string, count: number) {
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  const acknowledgedAt: number[] = [];
  let running = true;
  const loops = Array.from({ length: count }, async (_, worker) => {
    for (let i = 0; running; i++) {
      const name = `w${worker}-${i}`;
      const res = await server.request('POST', widgetsPath(ns), { body: widget(name) });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 200 && res.status < 300) {
        acknowledged.push(name);
        acknowledgedAt.push(Date.now());
      } else {
        await sleep(50);
      }
    }
  });
  return {
    acknowledged,
    acknowledgedAt,
    statuses,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Every acknowledged name is in a consistent list of the namespace (read once kapi is ready again). */
async function expectAllPresent(t: ExecutionContext, server: TestServer, ns: string, acknowledged: string[]): Promise<void> {
  await server.waitFor(async () => (await server.request('GET', '/readyz')).status === 200, 30_000, 'readyz to recover');
  const list = await server.waitFor(async () => {
    const res = await server.request('GET', widgetsPath(ns));
    return res.status === 200 ? res : undefined;
  }, 15_000);
  const present = new Set(list.body.items.map((w: any) => w.metadata.name as string));
  const missing = acknowledged.filter((name) => !present.has(name));
  t.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged creates are missing`);
}

test.serial('etcd down: /readyz and /livez fail their etcd checks, requests answer 503/504 promptly, watches end; etcd back: kapi recovers', async (t) => {
  const etcd = await startEtcd();
  const server = await serverOn(t, etcd);
  const ns = await createNamespace(server, 'down');
  await createWidget(server, ns, 'before');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1`);
  t.is(watch.status, 200);
  t.is((await server.request('GET', '/readyz')).status, 200);

  await etcd.members[0]!.stop();

  const readyz = await server.waitFor(async () => {
    const res = await server.request('GET', '/readyz');
    return res.status === 500 ? res : undefined;
  }, 10_000, '/readyz to fail');
  t.regex(readyz.text, /^\[-\]etcd failed: reason withheld\n\[-\]etcd-readiness failed: reason withheld$/m);
  t.regex(readyz.text, /readyz check failed\n$/);
  for (const path of ['/readyz/etcd', '/readyz/etcd-readiness', '/livez/etcd']) {
    const check = await server.request('GET', path);
    t.is(check.status, 500, path);
    t.regex(check.text, /^internal server error: etcd cluster is unavailable or misconfigured: /, path);
  }
  // As kube-apiserver's: the `etcd` check is a liveness check too (`etcd-readiness` is not).
  const livez = await server.request('GET', '/livez');
  t.is(livez.status, 500);
  t.is(livez.text, '[+]ping ok\n[-]etcd failed: reason withheld\nlivez check failed\n');

  await Promise.all([
    expectUnavailable(t, 'GET', () => server.request('GET', widgetsPath(ns, 'before'))),
    expectUnavailable(t, 'list', () => server.request('GET', widgetsPath(ns))),
    expectUnavailable(t, 'create', () => server.request('POST', widgetsPath(ns), { body: widget('during') })),
    expectUnavailable(t, 'delete', () => server.request('DELETE', widgetsPath(ns, 'before'))),
  ]);

  // The watch ends (the watch cache lost storage), so the client re-lists and watches again.
  await Promise.race([watch.ended, sleep(15_000).then(() => Promise.reject(new Error('the watch did not end')))]);
  t.pass('the watch ended');

  await etcd.members[0]!.start();
  await server.waitFor(async () => (await server.request('GET', '/readyz')).status === 200, 20_000, '/readyz to recover');
  t.is((await server.request('GET', '/livez')).status, 200);
  // As a client does after its watch ended: list, then watch from the list's resourceVersion.
  const list = await server.waitFor(async () => {
    const res = await server.request('GET', widgetsPath(ns));
    return res.status === 200 ? res.body : undefined;
  }, 20_000, 'lists to be served again');
  t.deepEqual(list.items.map((w: any) => w.metadata.name), ['before']);
  const again = await server.watch(`${widgetsPath(ns)}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
  try {
    const created = await server.waitFor(async () => {
      const res = await server.request('POST', widgetsPath(ns), { body: widget(`after-${Date.now()}`) });
      return res.status === 201 ? res.body : undefined;
    }, 20_000, 'creates to work again');
    const event = await again.next(10_000);
    t.is(event.type, 'ADDED');
    t.is(event.object.metadata.name, created.metadata.name);
  } finally {
    again.close();
  }
  t.is((await server.request('GET', widgetsPath(ns, 'before'))).status, 200);
});

test.serial('every create acknowledged while etcd is killed and restarted is stored afterwards', async (t) => {
  const etcd = await startEtcd();
  const server = await serverOn(t, etcd);
  const ns = await createNamespace(server, 'restart');
  const load = writers(server, ns, 4);
  await sleep(1500);
  const killedAt = Date.now();
  await etcd.members[0]!.stop('SIGKILL');
  // Down longer than a request waits for etcd (5 s), so creates fail meanwhile.
  await sleep(7000);
  await etcd.members[0]!.start();
  const restartedAt = Date.now();
  await sleep(3000);
  await load.stop();

  t.log('statuses:', JSON.stringify(Object.fromEntries(load.statuses)));
  t.deepEqual(
    [...load.statuses.keys()].filter((s) => ![201, 503, 504].includes(s)),
    [],
    'every answer is a 201 or a 503/504 Status',
  );
  t.true(load.acknowledgedAt.some((at) => at < killedAt), 'creates succeeded before the kill');
  t.true((load.statuses.get(503) ?? 0) + (load.statuses.get(504) ?? 0) > 0, 'creates failed while etcd was down');
  t.true(load.acknowledgedAt.some((at) => at > restartedAt), 'creates succeeded again after the restart');
  await expectAllPresent(t, server, ns, load.acknowledged);
});

test.serial('3-member cluster: stopping the leader loses no acknowledged create', async (t) => {
  const cluster = await startEtcdCluster(3);
  const server = await serverOn(t, cluster);
  const ns = await createNamespace(server, 'leader');
  const load = writers(server, ns, 4);
  await sleep(1500);
  const leader = await cluster.leader();
  const stoppedAt = Date.now();
  await leader.stop('SIGKILL');
  // Creates in flight to the lost leader time out (504 after 5 s: they may or may not have been applied); the next
  // ones go to the new leader.
  await sleep(8000);
  await load.stop();

  t.log(`stopped leader ${leader.name}; statuses:`, JSON.stringify(Object.fromEntries(load.statuses)));
  t.deepEqual(
    [...load.statuses.keys()].filter((s) => ![201, 503, 504].includes(s)),
    [],
    'every answer is a 201 or a 503/504 Status',
  );
  t.true(load.acknowledgedAt.filter((at) => at > stoppedAt + 2000).length > 20, 'creates go on with the new leader');
  await expectAllPresent(t, server, ns, load.acknowledged);
});

test.serial('an instance cut off from etcd catches up when it is back: a CRD created meanwhile through another is served', async (t) => {
  const etcd = await startEtcd();
  const port = Number(new URL(etcd.endpoints[0]!).port);
  const proxy = await startTcpProxy(port);
  const cut = await startTestServer({ storage: 'etcd', etcd: { endpoints: [`http://127.0.0.1:${proxy.port}`] } });
  const other = await serverOn(t, etcd);
  t.teardown(async () => {
    await cut.close();
    await proxy.close();
  });

  proxy.setBlocked(true);
  proxy.cutAll();
  // Longer than the watch feed keeps resuming: the cut-off instance's watches (its CRD controller's too) end.
  await cut.waitFor(async () => (await cut.request('GET', '/readyz')).status === 500, 10_000, 'readyz to fail');
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'sprockets.example.net' },
    spec: {
      group: 'example.net',
      scope: 'Cluster',
      names: { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket', listKind: 'SprocketList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
  await installCrd(other, crd);

  proxy.setBlocked(false);
  await waitForServed(cut, 'example.net', 'v1', 'sprockets');
  const created = await cut.request('POST', '/apis/example.net/v1/sprockets', {
    body: { apiVersion: 'example.net/v1', kind: 'Sprocket', metadata: { name: 's1' } },
  });
  t.is(created.status, 201);
  t.is((await other.request('GET', '/apis/example.net/v1/sprockets/s1')).status, 200);
});

/**
 * A fresh etcd, a kapi reaching it through a TCP proxy the test controls (`cut`), another kapi on it directly
 * (`other`), and a namespace both serve.
 */
async function behindProxy(t: ExecutionContext, prefix: string) {
  const etcd = await startEtcd();
  const proxy = await startTcpProxy(Number(new URL(etcd.endpoints[0]!).port));
  const cut = await startTestServer({ storage: 'etcd', etcd: { endpoints: [`http://127.0.0.1:${proxy.port}`] } });
  const other = await serverOn(t, etcd);
  t.teardown(async () => {
    await cut.close();
    await proxy.close();
  });
  await waitForServed(cut, 'example.com', 'v1', 'widgets');
  const ns = await createNamespace(other, prefix);
  await cut.waitFor(async () => (await cut.request('GET', `/api/v1/namespaces/${ns}`)).status === 200, 10_000, 'the namespace');
  return { proxy, cut, other, ns };
}

test.serial('a create that reached etcd but whose answer was lost answers 504 Timeout, not 503: it may have been applied', async (t) => {
  const { proxy, cut, other, ns } = await behindProxy(t, 'lost');

  // etcd receives the create and applies it; its answer is held back, then the connection is lost.
  proxy.setStalled(true);
  const answer = cut.request('POST', widgetsPath(ns), { body: widget('lost') });
  await other.waitFor(async () => (await other.request('GET', widgetsPath(ns, 'lost'))).status === 200, 3_000, 'the create to be applied');
  proxy.cutAll();
  proxy.setStalled(false);

  expectStatus(t, await answer, {
    code: 504,
    reason: 'Timeout',
    message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
  });
  t.is((await cut.request('GET', widgetsPath(ns, 'lost'))).status, 200, 'the create was applied');
});

test.serial('a create that never reached etcd (no connection) answers 503: it was certainly not applied', async (t) => {
  const { proxy, cut, other, ns } = await behindProxy(t, 'unsent');

  // Connections to etcd are refused: the request never leaves kapi.
  await proxy.close();
  const res = await cut.request('POST', widgetsPath(ns), { body: widget('unsent') });
  t.is(res.status, 503, res.text);
  t.like(res.body, { kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
  t.regex(res.body.message, /^etcd cluster is unavailable or misconfigured: /);
  t.is((await other.request('GET', widgetsPath(ns, 'unsent'))).status, 404, 'not applied');
});
