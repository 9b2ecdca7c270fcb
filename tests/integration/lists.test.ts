/** Lists: paging with limit/continue, label and field selectors. */
import test from 'ava';
import { createNamespace, createWidget, expectStatus, names, useTestServer, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

async function list(ns: string, query: string) {
  return server.request('GET', `${widgetsPath(ns)}?${query}`);
}

/** A namespace with w1..w5: w1, w2 gold; w3 silver; w4 gold; w5 unlabeled. */
async function fiveWidgets(): Promise<string> {
  const ns = await createNamespace(server, 'list');
  const tiers: (string | undefined)[] = ['gold', 'gold', 'silver', 'gold', undefined];
  for (const [i, tier] of tiers.entries()) await createWidget(server, ns, `w${i + 1}`, tier ? { labels: { tier } } : {});
  return ns;
}

test('limit and continue page through a collection at one resourceVersion', async (t) => {
  const ns = await fiveWidgets();

  const page1 = await list(ns, 'limit=2');
  t.is(page1.status, 200);
  t.deepEqual(names(page1.body), ['w1', 'w2']);
  t.is(page1.body.metadata.remainingItemCount, 3);
  t.truthy(page1.body.metadata.continue);
  const rv = page1.body.metadata.resourceVersion;

  // A write between pages is not seen: the remaining pages are read at the first page's revision.
  await createWidget(server, ns, 'w6');

  const page2 = await list(ns, `limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`);
  t.is(page2.status, 200);
  t.deepEqual(names(page2.body), ['w3', 'w4']);
  t.is(page2.body.metadata.remainingItemCount, 1);
  t.is(page2.body.metadata.resourceVersion, rv);
  t.truthy(page2.body.metadata.continue);

  const page3 = await list(ns, `limit=2&continue=${encodeURIComponent(page2.body.metadata.continue)}`);
  t.is(page3.status, 200);
  t.deepEqual(names(page3.body), ['w5']);
  t.is(page3.body.metadata.resourceVersion, rv);
  t.is(page3.body.metadata.continue, undefined);
  t.is(page3.body.metadata.remainingItemCount, undefined);

  const fresh = await list(ns, '');
  t.deepEqual(names(fresh.body), ['w1', 'w2', 'w3', 'w4', 'w5', 'w6']);
  t.not(fresh.body.metadata.resourceVersion, rv);
});

test('a limit at least the collection size returns everything without continue', async (t) => {
  const ns = await fiveWidgets();
  for (const limit of [5, 500]) {
    const res = await list(ns, `limit=${limit}`);
    t.deepEqual(names(res.body), ['w1', 'w2', 'w3', 'w4', 'w5']);
    t.is(res.body.metadata.continue, undefined);
    t.is(res.body.metadata.remainingItemCount, undefined);
  }
});

test('an invalid continue token is 400', async (t) => {
  const ns = await fiveWidgets();
  const res = await list(ns, 'limit=2&continue=not-a-token');
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
});

test('labelSelector filters by labels', async (t) => {
  const ns = await fiveWidgets();
  const cases: [string, string[]][] = [
    ['tier=gold', ['w1', 'w2', 'w4']],
    ['tier==gold', ['w1', 'w2', 'w4']],
    ['tier!=gold', ['w3', 'w5']],
    ['tier in (gold,silver)', ['w1', 'w2', 'w3', 'w4']],
    ['tier notin (gold)', ['w3', 'w5']],
    ['tier', ['w1', 'w2', 'w3', 'w4']],
    ['!tier', ['w5']],
    ['tier=gold,tier!=gold', []],
  ];
  for (const [selector, expected] of cases) {
    const res = await list(ns, `labelSelector=${encodeURIComponent(selector)}`);
    t.is(res.status, 200, selector);
    t.deepEqual(names(res.body), expected, selector);
  }
});

test('fieldSelector filters by metadata.name and metadata.namespace', async (t) => {
  const ns = await fiveWidgets();
  const byName = await list(ns, 'fieldSelector=metadata.name%3Dw1');
  t.is(byName.status, 200);
  t.deepEqual(names(byName.body), ['w1']);
  const notName = await list(ns, 'fieldSelector=metadata.name!%3Dw1');
  t.deepEqual(names(notName.body), ['w2', 'w3', 'w4', 'w5']);
  const both = await list(ns, `labelSelector=tier%3Dgold&fieldSelector=${encodeURIComponent('metadata.name!=w2')}`);
  t.deepEqual(names(both.body), ['w1', 'w4']);

  const other = await createNamespace(server, 'list');
  await createWidget(server, other, 'w1');
  const all = await server.request('GET', `/apis/example.com/v1/widgets?fieldSelector=${encodeURIComponent(`metadata.namespace=${ns},metadata.name=w1`)}`);
  t.is(all.status, 200);
  t.deepEqual(
    all.body.items.map((i: { metadata: { namespace: string; name: string } }) => `${i.metadata.namespace}/${i.metadata.name}`),
    [`${ns}/w1`],
  );
});

test('an invalid label selector is 400', async (t) => {
  const ns = await fiveWidgets();
  for (const selector of ['tier in (gold', 'tier=gold=silver', 'bad key!=x', '=gold']) {
    const res = await list(ns, `labelSelector=${encodeURIComponent(selector)}`);
    expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  }
});

test('a field selector on an unsupported field is 400', async (t) => {
  const ns = await fiveWidgets();
  const res = await list(ns, 'fieldSelector=spec.color%3Dred');
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  t.true(res.body.message.includes('spec.color'), res.body.message);
});

test('an invalid limit is 400', async (t) => {
  const ns = await fiveWidgets();
  const res = await list(ns, 'limit=two');
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
});
