/**
 * resourceVersion / resourceVersionMatch semantics of list and get (api-concepts "Resource versions"): one test per
 * row of the list and get tables, the 504 "Too large resource version" wait, 410 for compacted exact reads, and the
 * 422 ListOptions validation errors. Mirrors kube-apiserver 1.32 (lists with rv=0 or NotOlderThan and no limit are
 * served from the watch cache, where `limit` is ignored).
 */
import test, { type ExecutionContext } from 'ava';
import {
  createNamespace,
  createWidget,
  expectStatus,
  installWidgetsCrd,
  names,
  startTestServer,
  useTestServer,
  widgetsPath,
  type TestResponse,
} from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true, config: { watchCache: { waitForResourceVersionMs: 300 } } });

const rvOf = (obj: any): bigint => BigInt(obj.metadata.resourceVersion);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function list(ns: string, query = '') {
  return server.request('GET', `${widgetsPath(ns)}${query ? `?${query}` : ''}`);
}

function patchColor(ns: string, name: string, color: string) {
  return server.request('PATCH', widgetsPath(ns, name), { body: { spec: { color } }, contentType: 'application/merge-patch+json' });
}

/** A namespace with a, b, c; returns it with N = a most-recent list's resourceVersion taken after them. */
async function abc(): Promise<{ ns: string; n: string }> {
  const ns = await createNamespace(server, 'rvl');
  for (const name of ['a', 'b', 'c']) await createWidget(server, ns, name);
  const res = await list(ns);
  return { ns, n: res.body.metadata.resourceVersion };
}

/** After N: d is created, b deleted, a patched to blue. Returns d's resourceVersion. */
async function changeAfter(ns: string): Promise<bigint> {
  const d = await createWidget(server, ns, 'd');
  t200(await server.request('DELETE', widgetsPath(ns, 'b')));
  t200(await patchColor(ns, 'a', 'blue'));
  return rvOf(d);
}

function t200(res: TestResponse): void {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.text}`);
}

/** The list at N exactly: a (red), b, c; resourceVersion N; no d. */
function expectExactAtN(t: ExecutionContext, res: TestResponse, n: string, label: string): void {
  t.is(res.status, 200, `${label}: ${res.text.slice(0, 300)}`);
  t.is(res.body.metadata?.resourceVersion, n, `${label}: list resourceVersion`);
  t.deepEqual(names(res.body), ['a', 'b', 'c'], `${label}: items`);
  t.is(res.body.items[0]?.spec?.color, 'red', `${label}: a as it was at N`);
}

/** The latest state after changeAfter: a (blue), c, d; resourceVersion at least N and d's. */
function expectLatest(t: ExecutionContext, res: TestResponse, n: string, dRv: bigint, label: string): void {
  t.is(res.status, 200, `${label}: ${res.text.slice(0, 300)}`);
  const rv = BigInt(res.body.metadata?.resourceVersion ?? '0');
  t.true(rv >= BigInt(n), `${label}: list rv ${rv} >= N ${n}`);
  t.true(rv >= dRv, `${label}: list rv ${rv} >= d's ${dRv}`);
  t.deepEqual(names(res.body), ['a', 'c', 'd'], `${label}: items`);
  t.is(res.body.items[0]?.spec?.color, 'blue', `${label}: a at its latest`);
}

// ---------------------------------------------------------------------------------------------------------------
// List table

test('list, rv unset, no limit: Most Recent includes a write acknowledged just before', async (t) => {
  const ns = await createNamespace(server, 'rvl');
  await createWidget(server, ns, 'a');
  const b = await createWidget(server, ns, 'b');
  const res = await list(ns);
  t.is(res.status, 200);
  t.is(res.body.kind, 'WidgetList');
  t.deepEqual(names(res.body), ['a', 'b']);
  t.true(BigInt(res.body.metadata.resourceVersion) >= rvOf(b), `list rv ${res.body.metadata.resourceVersion} >= ${rvOf(b)}`);
});

test('list, rv unset, limit: Most Recent, first page', async (t) => {
  const { ns, n } = await abc();
  const dRv = await changeAfter(ns);
  const res = await list(ns, 'limit=2');
  t.is(res.status, 200);
  t.deepEqual(names(res.body), ['a', 'c']);
  t.true(BigInt(res.body.metadata.resourceVersion) >= dRv && BigInt(res.body.metadata.resourceVersion) >= BigInt(n));
  t.truthy(res.body.metadata.continue);
});

test('list, rv=0: Any, served from the watch cache where limit is ignored', async (t) => {
  const ns = await createNamespace(server, 'rvl');
  for (const name of ['a', 'b', 'c']) await createWidget(server, ns, name);
  // "Any" may be stale: wait until the cache has caught up with the three creates.
  await server.waitFor(async () => names((await list(ns, 'resourceVersion=0')).body).length === 3, 5000, 'rv=0 list to show 3 items');
  const res = await list(ns, 'resourceVersion=0');
  t.is(res.status, 200);
  t.is(res.body.kind, 'WidgetList');
  t.regex(res.body.metadata.resourceVersion, /^[1-9]\d*$/);
  const limited = await list(ns, 'resourceVersion=0&limit=1');
  t.is(limited.status, 200);
  t.deepEqual(names(limited.body), ['a', 'b', 'c'], 'limit is ignored for rv=0');
  t.is(limited.body.metadata.continue, undefined);
  t.is(limited.body.metadata.remainingItemCount, undefined);
});

test('list, rv=N, no limit: Not older than, serves the latest state', async (t) => {
  const { ns, n } = await abc();
  const dRv = await changeAfter(ns);
  expectLatest(t, await list(ns, `resourceVersion=${n}`), n, dRv, 'rv=N');
});

test('list, rv=N with limit: Exact, the collection as it was at N', async (t) => {
  const { ns, n } = await abc();
  await changeAfter(ns);
  expectExactAtN(t, await list(ns, `resourceVersion=${n}&limit=10`), n, 'rv=N&limit=10');

  const page1 = await list(ns, `resourceVersion=${n}&limit=2`);
  t.is(page1.status, 200);
  t.is(page1.body.metadata.resourceVersion, n);
  t.deepEqual(names(page1.body), ['a', 'b']);
  t.truthy(page1.body.metadata.continue);
  const page2 = await list(ns, `limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`);
  t.is(page2.status, 200);
  t.is(page2.body.metadata.resourceVersion, n);
  t.deepEqual(names(page2.body), ['c']);
});

test('list, resourceVersionMatch=Exact: the collection at N, with and without limit', async (t) => {
  const { ns, n } = await abc();
  await changeAfter(ns);
  expectExactAtN(t, await list(ns, `resourceVersionMatch=Exact&resourceVersion=${n}`), n, 'Exact');
  expectExactAtN(t, await list(ns, `resourceVersionMatch=Exact&resourceVersion=${n}&limit=5`), n, 'Exact&limit=5');
});

test('list, resourceVersionMatch=NotOlderThan&resourceVersion=0: Any', async (t) => {
  const ns = await createNamespace(server, 'rvl');
  await createWidget(server, ns, 'a');
  await server.waitFor(async () => names((await list(ns, 'resourceVersionMatch=NotOlderThan&resourceVersion=0')).body).length === 1, 5000);
  const res = await list(ns, 'resourceVersionMatch=NotOlderThan&resourceVersion=0');
  t.is(res.status, 200);
  t.deepEqual(names(res.body), ['a']);
});

test('list, resourceVersionMatch=NotOlderThan&resourceVersion=N: not older than N, latest data (with and without limit)', async (t) => {
  const { ns, n } = await abc();
  const dRv = await changeAfter(ns);
  expectLatest(t, await list(ns, `resourceVersionMatch=NotOlderThan&resourceVersion=${n}`), n, dRv, 'NotOlderThan');
  expectLatest(t, await list(ns, `resourceVersionMatch=NotOlderThan&resourceVersion=${n}&limit=10`), n, dRv, 'NotOlderThan&limit=10');
});

// ---------------------------------------------------------------------------------------------------------------
// Get table

test('get, rv unset: the latest state', async (t) => {
  const ns = await createNamespace(server, 'rvg');
  await createWidget(server, ns, 'a');
  const patched = await patchColor(ns, 'a', 'blue');
  const res = await server.request('GET', widgetsPath(ns, 'a'));
  t.is(res.status, 200);
  t.is(res.body.spec.color, 'blue');
  t.is(res.body.metadata.resourceVersion, patched.body.metadata.resourceVersion);
});

test('get, rv=0: Any', async (t) => {
  const ns = await createNamespace(server, 'rvg');
  const a = await createWidget(server, ns, 'a');
  const res = await server.waitFor(async () => {
    const r = await server.request('GET', `${widgetsPath(ns, 'a')}?resourceVersion=0`);
    return r.status === 200 ? r : undefined;
  }, 5000, 'GET rv=0 to answer 200');
  t.is(res.body.metadata.name, 'a');
  t.is(res.body.metadata.uid, a.metadata.uid);
});

test('get, rv=its own resourceVersion: not older than it', async (t) => {
  const ns = await createNamespace(server, 'rvg');
  await createWidget(server, ns, 'a');
  const patched = await patchColor(ns, 'a', 'blue');
  const rv = patched.body.metadata.resourceVersion;
  const res = await server.request('GET', `${widgetsPath(ns, 'a')}?resourceVersion=${rv}`);
  t.is(res.status, 200, res.text.slice(0, 300));
  t.true(rvOf(res.body) >= BigInt(rv));
  t.is(res.body.spec.color, 'blue');
});

// ---------------------------------------------------------------------------------------------------------------
// Unavailable resource versions: 504 Too large resource version

function expectTooLarge(t: ExecutionContext, res: TestResponse, n: bigint, label: string): void {
  expectStatus(t, res, { code: 504, reason: 'Timeout' });
  const m = /^Timeout: Too large resource version: (\d+), current: (\d+)$/.exec(res.body?.message ?? '');
  t.truthy(m, `${label}: message ${JSON.stringify(res.body?.message)}`);
  if (m) {
    t.is(m[1], String(n), `${label}: requested rv in the message`);
    t.true(BigInt(m[2]!) < n, `${label}: current ${m[2]} < requested ${n}`);
  }
  t.is(res.body?.details?.retryAfterSeconds, 1, `${label}: retryAfterSeconds`);
  t.deepEqual(res.body?.details?.causes, [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], `${label}: causes`);
  t.is(res.headers['retry-after'], '1', `${label}: Retry-After header`);
}

test('list and get at a resourceVersion the server has not reached: 504 after waiting', async (t) => {
  const ns = await createNamespace(server, 'rvbig');
  await createWidget(server, ns, 'a');
  const current = BigInt((await list(ns)).body.metadata.resourceVersion);
  const n = current + 1000n;
  const cases: [string, string][] = [
    ['list NotOlderThan', `${widgetsPath(ns)}?resourceVersionMatch=NotOlderThan&resourceVersion=${n}`],
    ['list rv=N', `${widgetsPath(ns)}?resourceVersion=${n}`],
    ['get', `${widgetsPath(ns, 'a')}?resourceVersion=${n}`],
  ];
  for (const [label, path] of cases) {
    const started = Date.now();
    const res = await server.request('GET', path);
    const elapsed = Date.now() - started;
    expectTooLarge(t, res, n, label);
    t.true(elapsed >= 250, `${label}: answered after ${elapsed}ms, expected to wait ~300ms first`);
  }
});

test('a resourceVersion reached while the request waits is served', async (t) => {
  const other = await startTestServer({ config: { watchCache: { waitForResourceVersionMs: 2000 } } });
  try {
    await installWidgetsCrd(other);
    const ns = await createNamespace(other, 'rvwait');
    await createWidget(other, ns, 'a');

    const current = BigInt((await other.request('GET', widgetsPath(ns))).body.metadata.resourceVersion);
    const pendingList = other.request('GET', `${widgetsPath(ns)}?resourceVersionMatch=NotOlderThan&resourceVersion=${current + 1n}`);
    await sleep(100);
    await createWidget(other, ns, 'late');
    const listed = await pendingList;
    t.is(listed.status, 200, listed.text.slice(0, 300));
    t.true(BigInt(listed.body.metadata?.resourceVersion ?? '0') >= current + 1n);
    t.deepEqual(names(listed.body), ['a', 'late']);

    const now = BigInt((await other.request('GET', widgetsPath(ns))).body.metadata.resourceVersion);
    const pendingGet = other.request('GET', `${widgetsPath(ns, 'a')}?resourceVersion=${now + 1n}`);
    await sleep(100);
    await other.request('PATCH', widgetsPath(ns, 'a'), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
    const got = await pendingGet;
    t.is(got.status, 200, got.text.slice(0, 300));
    t.true(rvOf(got.body) >= now + 1n);
    t.is(got.body.spec.color, 'blue');
  } finally {
    await other.close();
  }
});

// ---------------------------------------------------------------------------------------------------------------
// 410 for exact reads at a compacted revision (serial: compaction must not hit the concurrent tests' revisions)

test.serial('an exact list at a compacted revision is 410 Expired', async (t) => {
  const { ns, n } = await abc();
  await changeAfter(ns);
  const compacted = await server.compact();
  t.true(compacted > Number(n));
  for (const query of [`resourceVersionMatch=Exact&resourceVersion=${n}`, `resourceVersion=${n}&limit=2`]) {
    const res = await list(ns, query);
    expectStatus(t, res, { code: 410, reason: 'Expired', message: 'The resourceVersion for the provided list is too old.' });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Invalid combinations

const invalid: { query: string; field: string; reason: string; error: string }[] = [
  {
    query: 'resourceVersionMatch=NotOlderThan',
    field: 'resourceVersionMatch',
    reason: 'FieldValueForbidden',
    error: 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
  },
  {
    query: 'resourceVersionMatch=NotOlderThan&resourceVersion=1&limit=1&continue=CONTINUE',
    field: 'resourceVersionMatch',
    reason: 'FieldValueForbidden',
    error: 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
  },
  {
    query: 'resourceVersionMatch=Foo&resourceVersion=1',
    field: 'resourceVersionMatch',
    reason: 'FieldValueNotSupported',
    error: 'resourceVersionMatch: Unsupported value: "Foo": supported values: "Exact", "NotOlderThan", ""',
  },
  {
    query: 'resourceVersionMatch=Exact&resourceVersion=0',
    field: 'resourceVersionMatch',
    reason: 'FieldValueForbidden',
    error: 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
  },
  {
    query: 'sendInitialEvents=true',
    field: 'sendInitialEvents',
    reason: 'FieldValueForbidden',
    error: 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
  },
];

for (const c of invalid) {
  test(`list with ${c.query.replace('CONTINUE', '<token>')} is 422 ListOptions invalid`, async (t) => {
    const ns = await createNamespace(server, 'rvbad');
    for (const name of ['a', 'b']) await createWidget(server, ns, name);
    let query = c.query;
    if (query.includes('CONTINUE')) {
      const token = (await list(ns, 'limit=1')).body.metadata.continue;
      query = query.replace('CONTINUE', encodeURIComponent(token));
    }
    const res = await list(ns, query);
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    const message: string = res.body?.message ?? '';
    t.true(message.startsWith('ListOptions.meta.k8s.io "" is invalid: '), message);
    t.true(message.includes(c.error), `message ${JSON.stringify(message)} should include ${JSON.stringify(c.error)}`);
    t.is(res.body?.details?.kind, 'ListOptions');
    t.is(res.body?.details?.group, 'meta.k8s.io');
    t.true(
      (res.body?.details?.causes ?? []).some((cause: any) => cause.field === c.field && cause.reason === c.reason),
      `causes ${JSON.stringify(res.body?.details?.causes)} should have ${c.reason} on ${c.field}`,
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------
// continue with resourceVersion

test('continue with resourceVersion=N is 400; with resourceVersion=0 it is treated as the continue', async (t) => {
  const { ns, n } = await abc();
  const page1 = await list(ns, 'limit=2');
  const token = encodeURIComponent(page1.body.metadata.continue);

  const bad = await list(ns, `limit=2&continue=${token}&resourceVersion=${n}`);
  expectStatus(t, bad, { code: 400, reason: 'BadRequest', message: 'specifying resource version is not allowed when using continue' });

  const zero = await list(ns, `limit=2&continue=${token}&resourceVersion=0`);
  t.is(zero.status, 200, zero.text.slice(0, 300));
  t.deepEqual(names(zero.body), ['c']);
  t.is(zero.body.metadata.resourceVersion, page1.body.metadata.resourceVersion);
  t.is(zero.body.metadata.continue, undefined);
});
