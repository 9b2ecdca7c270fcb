/**
 * Retrieving large result sets in chunks (api-concepts): limit/continue pages form one consistent snapshot at the
 * first page's resourceVersion; remainingItemCount; invalid and expired continue tokens (410 with a fresh token).
 */
import test from 'ava';
import { createNamespace, createWidget, expectStatus, names, useTestServer, widgetsPath, type TestResponse } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

function list(ns: string, query: string) {
  return server.request('GET', `${widgetsPath(ns)}?${query}`);
}

function next(ns: string, limit: number, page: TestResponse, extra = '') {
  return list(ns, `limit=${limit}&continue=${encodeURIComponent(page.body.metadata.continue)}${extra}`);
}

/** A namespace with w01..wNN, created in a shuffled order (pages must still come in key order). */
async function widgets(count: number, labels?: (i: number) => Record<string, string> | undefined): Promise<string[]> {
  const ns = await createNamespace(server, 'chunk');
  const all = Array.from({ length: count }, (_, i) => i + 1);
  const shuffled = [...all.filter((i) => i % 2 === 0).reverse(), ...all.filter((i) => i % 2 === 1)];
  for (const i of shuffled) {
    const l = labels?.(i);
    await createWidget(server, ns, `w${String(i).padStart(2, '0')}`, l ? { labels: l } : {});
  }
  return [ns, ...all.map((i) => `w${String(i).padStart(2, '0')}`)];
}

test('pages together equal the full list, in key order, without duplicates', async (t) => {
  const [ns, ...expected] = await widgets(7);
  const full = await list(ns, '');
  t.deepEqual(names(full.body), expected);

  const seen: string[] = [];
  const remaining: (number | undefined)[] = [];
  let page = await list(ns, 'limit=3');
  const rv = page.body.metadata.resourceVersion;
  for (let i = 0; ; i++) {
    t.is(page.status, 200, page.text.slice(0, 300));
    t.is(page.body.metadata.resourceVersion, rv, `page ${i + 1} resourceVersion`);
    seen.push(...names(page.body));
    remaining.push(page.body.metadata.remainingItemCount);
    if (!page.body.metadata.continue) break;
    t.is(page.body.items.length, 3, `page ${i + 1} is full`);
    page = await next(ns, 3, page);
    if (i > 5) t.fail('too many pages');
  }
  t.deepEqual(seen, expected);
  t.is(new Set(seen).size, seen.length);
  t.deepEqual(remaining, [4, 1, undefined], 'remainingItemCount: items left after each page, absent on the last');
  t.falsy(page.body.metadata.continue, 'last page has no continue');
});

test('every page shows the first page’s snapshot despite creates, updates and deletes between pages', async (t) => {
  const [ns] = await widgets(6);
  const page1 = await list(ns, 'limit=2');
  t.deepEqual(names(page1.body), ['w01', 'w02']);
  const rv = page1.body.metadata.resourceVersion;

  await createWidget(server, ns, 'w07');
  await createWidget(server, ns, 'w035');
  t.is((await server.request('DELETE', widgetsPath(ns, 'w04'))).status, 200);
  const patched = await server.request('PATCH', widgetsPath(ns, 'w05'), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
  t.is(patched.status, 200);

  const page2 = await next(ns, 2, page1);
  t.is(page2.status, 200, page2.text.slice(0, 300));
  t.is(page2.body.metadata.resourceVersion, rv);
  t.deepEqual(names(page2.body), ['w03', 'w04'], 'w035 (created later) is absent, w04 (deleted later) is present');
  t.is(page2.body.metadata.remainingItemCount, 2);

  const page3 = await next(ns, 2, page2);
  t.is(page3.status, 200, page3.text.slice(0, 300));
  t.is(page3.body.metadata.resourceVersion, rv);
  t.deepEqual(names(page3.body), ['w05', 'w06'], 'w07 (created later) is absent');
  t.is(page3.body.items[0].spec.color, 'red', 'w05 as it was at the first page');
  t.true(BigInt(page3.body.items[0].metadata.resourceVersion) < BigInt(patched.body.metadata.resourceVersion));
  t.falsy(page3.body.metadata.continue);
  t.is(page3.body.metadata.remainingItemCount, undefined);

  const fresh = await list(ns, '');
  t.deepEqual(names(fresh.body), ['w01', 'w02', 'w03', 'w035', 'w05', 'w06', 'w07']);
  t.true(BigInt(fresh.body.metadata.resourceVersion) > BigInt(rv));
});

test('with a labelSelector, each page still holds `limit` matches and remainingItemCount is absent', async (t) => {
  // w01..w08: odd ones gold, even ones silver.
  const [ns] = await widgets(8, (i) => ({ tier: i % 2 ? 'gold' : 'silver' }));
  const page1 = await list(ns, 'labelSelector=tier%3Dgold&limit=2');
  t.is(page1.status, 200);
  t.deepEqual(names(page1.body), ['w01', 'w03']);
  t.truthy(page1.body.metadata.continue);
  t.is(page1.body.metadata.remainingItemCount, undefined);
  const rv = page1.body.metadata.resourceVersion;

  const page2 = await next(ns, 2, page1, '&labelSelector=tier%3Dgold');
  t.is(page2.status, 200);
  t.deepEqual(names(page2.body), ['w05', 'w07']);
  t.is(page2.body.metadata.resourceVersion, rv);
  t.is(page2.body.metadata.remainingItemCount, undefined);
  if (page2.body.metadata.continue) {
    // w08 is left but does not match: the last page is empty.
    const page3 = await next(ns, 2, page2, '&labelSelector=tier%3Dgold');
    t.is(page3.status, 200);
    t.deepEqual(names(page3.body), []);
    t.falsy(page3.body.metadata.continue);
  }
});

test('an invalid continue token is 400 "invalid continue token"', async (t) => {
  const [ns] = await widgets(3);
  const tokens = [
    'not-a-token',
    Buffer.from('{"v":"meta.k8s.io/v1","rv":"x","start":"w01\\u0000"}').toString('base64'),
    // A revision no JS number holds exactly must not reach storage.
    Buffer.from('{"v":"meta.k8s.io/v1","rv":99999999999999999999,"start":"w01\\u0000"}').toString('base64'),
  ];
  for (const token of tokens) {
    const res = await list(ns, `limit=2&continue=${encodeURIComponent(token)}`);
    expectStatus(t, res, { code: 400, reason: 'BadRequest' });
    t.true(String(res.body?.message).startsWith('invalid continue token'), `message: ${res.body?.message}`);
  }
});

// Serial: compaction must not hit the revisions of concurrent tests (serial tests run before the others).
test.serial('a continue token past compaction is 410 Expired with a fresh token that continues at the latest state', async (t) => {
  const [ns] = await widgets(6);
  const page1 = await list(ns, 'limit=2');
  t.deepEqual(names(page1.body), ['w01', 'w02']);
  const rv1 = BigInt(page1.body.metadata.resourceVersion);

  t.is((await server.request('DELETE', widgetsPath(ns, 'w03'))).status, 200);
  const w07 = await createWidget(server, ns, 'w07');
  const compacted = await server.compact();
  t.true(BigInt(compacted) > rv1);

  const expired = await next(ns, 2, page1);
  expectStatus(t, expired, { code: 410, reason: 'Expired' });
  t.true(
    String(expired.body?.message).startsWith('The provided continue parameter is too old to display a consistent list result.'),
    `message: ${expired.body?.message}`,
  );
  const fresh = expired.body?.metadata?.continue;
  t.truthy(fresh, 'the Status carries a fresh continue token in metadata.continue');
  if (!fresh) return;

  const page2 = await list(ns, `limit=2&continue=${encodeURIComponent(fresh)}`);
  t.is(page2.status, 200, page2.text.slice(0, 300));
  t.deepEqual(names(page2.body), ['w04', 'w05'], 'the rest at the latest state: w03 (deleted) is gone');
  const rv2 = BigInt(page2.body.metadata.resourceVersion);
  t.true(rv2 > rv1, `list rv ${rv2} is newer than the first page's ${rv1}`);
  t.true(rv2 >= BigInt(w07.metadata.resourceVersion));
  t.truthy(page2.body.metadata.continue);

  const page3 = await next(ns, 2, page2);
  t.is(page3.status, 200, page3.text.slice(0, 300));
  t.deepEqual(names(page3.body), ['w06', 'w07'], 'w07 (created before compaction) is present');
  t.is(page3.body.metadata.resourceVersion, page2.body.metadata.resourceVersion);
  t.falsy(page3.body.metadata.continue);
});
