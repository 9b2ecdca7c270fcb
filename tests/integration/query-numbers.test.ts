/**
 * Numeric query parameters at and past their edges, answered as kube-apiserver answers them: int64 parameters
 * (limit, timeoutSeconds, gracePeriodSeconds) with strconv.ParseInt's 400, resourceVersion with the storage
 * versioner's 400 "invalid resource version", and a parseable resourceVersion no store reaches with the exact
 * 504 "Too large resource version" — never a 500, and never an inexact number echoed or sent to storage.
 */
import test from 'ava';
import { createNamespace, createWidget, expectStatus, names, useTestServer, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const huge = '99999999999999999999'; // above both int64 and uint64
const int64Max = '9223372036854775807';
const uint64Max = '18446744073709551615';

const outOfRange = (name: 'ParseInt' | 'ParseUint', value: string) => `strconv.${name}: parsing "${value}": value out of range`;
const badSyntax = (name: 'ParseInt' | 'ParseUint', value: string) => `strconv.${name}: parsing "${value}": invalid syntax`;
const invalidRv = (value: string, why: string) => `invalid resource version: resourceVersion: Invalid value: "${value}": ${why}`;

test('int64 parameters out of range or malformed are 400 with strconv.ParseInt\'s message', async (t) => {
  const ns = await createNamespace(server, 'qnum');
  const w1 = await createWidget(server, ns, 'w1');
  const cases: [string, string, string][] = [
    ['GET', `${widgetsPath(ns)}?limit=${huge}`, outOfRange('ParseInt', huge)],
    ['GET', `${widgetsPath(ns)}?limit=-${huge}`, outOfRange('ParseInt', `-${huge}`)],
    ['GET', `${widgetsPath(ns)}?limit=9223372036854775808`, outOfRange('ParseInt', '9223372036854775808')],
    ['GET', `${widgetsPath(ns)}?limit=ten`, badSyntax('ParseInt', 'ten')],
    ['GET', `${widgetsPath(ns)}?limit=`, badSyntax('ParseInt', '')],
    ['GET', `${widgetsPath(ns)}?limit=1.5`, badSyntax('ParseInt', '1.5')],
    ['GET', `${widgetsPath(ns)}?watch=1&timeoutSeconds=${huge}`, outOfRange('ParseInt', huge)],
    ['GET', `${widgetsPath(ns)}?watch=1&timeoutSeconds=0.1s`, badSyntax('ParseInt', '0.1s')],
    ['DELETE', `${widgetsPath(ns, 'w1')}?gracePeriodSeconds=${huge}`, outOfRange('ParseInt', huge)],
    ['DELETE', `${widgetsPath(ns)}?gracePeriodSeconds=${huge}`, outOfRange('ParseInt', huge)],
  ];
  for (const [method, path, message] of cases) {
    const res = await server.request(method, path);
    expectStatus(t, res, { code: 400, reason: 'BadRequest', message });
  }
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body?.metadata?.uid, w1.metadata.uid, 'the refused deletes deleted nothing');
});

test('the largest int64 limit lists everything (it never reaches storage as an inexact number)', async (t) => {
  const ns = await createNamespace(server, 'qnum');
  await createWidget(server, ns, 'w1');
  await createWidget(server, ns, 'w2');
  for (const limit of [int64Max, '%2B5', '-1']) {
    const res = await server.request('GET', `${widgetsPath(ns)}?limit=${limit}`);
    t.is(res.status, 200, `limit=${limit}: ${res.text.slice(0, 300)}`);
    t.deepEqual(names(res.body), ['w1', 'w2'], `limit=${limit}`);
    t.is(res.body.metadata.continue, undefined, `limit=${limit}`);
  }
});

test('the largest int64 timeoutSeconds keeps a watch open rather than ending it at once', async (t) => {
  const ns = await createNamespace(server, 'qnum');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&timeoutSeconds=${int64Max}`);
  try {
    t.is(watch.status, 200);
    await createWidget(server, ns, 'w1');
    const event = await watch.next(5000);
    t.deepEqual([event.type, event.object.metadata.name], ['ADDED', 'w1']);
  } finally {
    watch.close();
  }
});

test('a resourceVersion that is not a uint64 is 400 "invalid resource version" for list, watch and get', async (t) => {
  const ns = await createNamespace(server, 'qnum');
  await createWidget(server, ns, 'w1');
  const values: [string, string][] = [
    [huge, outOfRange('ParseUint', huge)],
    ['18446744073709551616', outOfRange('ParseUint', '18446744073709551616')],
    ['abc', badSyntax('ParseUint', 'abc')],
    ['-1', badSyntax('ParseUint', '-1')],
  ];
  for (const [value, why] of values) {
    for (const path of [`${widgetsPath(ns)}?`, `${widgetsPath(ns)}?limit=1&`, `${widgetsPath(ns)}?watch=1&`, `${widgetsPath(ns, 'w1')}?`]) {
      const res = await server.request('GET', `${path}resourceVersion=${value}`);
      expectStatus(t, res, { code: 400, reason: 'BadRequest', message: invalidRv(value, why) });
    }
  }
});

test('a uint64 resourceVersion no store reaches is 504 Too large, naming it exactly', async (t) => {
  const ns = await createNamespace(server, 'qnum');
  await createWidget(server, ns, 'w1');
  const current = Number((await server.request('GET', widgetsPath(ns))).body.metadata.resourceVersion);
  for (const value of [int64Max, uint64Max, `0${uint64Max}`]) {
    for (const query of ['', '&limit=1', '&resourceVersionMatch=Exact', '&resourceVersionMatch=NotOlderThan']) {
      const res = await server.request('GET', `${widgetsPath(ns)}?resourceVersion=${value}${query}`);
      t.is(res.status, 504, `${value}${query}: ${res.text}`);
      const m = /^Timeout: Too large resource version: (\d+), current: (\d+)$/.exec(res.body?.message ?? '');
      t.is(m?.[1], value.replace(/^0+/, ''), `${value}${query}: ${res.body?.message}`);
      t.true(Number(m?.[2]) >= current, `${value}${query}: ${res.body?.message}`);
    }
    const get = await server.request('GET', `${widgetsPath(ns, 'w1')}?resourceVersion=${value}`);
    t.is(get.status, 504, get.text);
    t.true(get.body?.message?.startsWith(`Timeout: Too large resource version: ${value.replace(/^0+/, '')}, current: `), get.body?.message);
  }
});

test("a malformed timeout is 400 with Go's duration error, before authentication; a watch is long-running and has none", async (t) => {
  const ns = await createNamespace(server, 'qtimeout');
  const invalid = (text: string, why: string) => `invalid timeout specified in the request URL - time: ${why} ${JSON.stringify(text)}`;
  const cases: [string, string][] = [
    ['abc', invalid('abc', 'invalid duration')],
    ['5', invalid('5', 'missing unit in duration')],
    ['1x', `invalid timeout specified in the request URL - time: unknown unit "x" in duration "1x"`],
  ];
  for (const [timeout, message] of cases) {
    expectStatus(t, await server.request('GET', `${widgetsPath(ns)}?timeout=${timeout}`), { code: 400, reason: 'BadRequest', message });
    expectStatus(t, await server.request('GET', `/api/v1/namespaces?timeout=${timeout}`, { token: null }), { code: 400, reason: 'BadRequest', message });
  }
  for (const timeout of ['', '0', '-1s', '32s', '1h']) t.is((await server.request('GET', `${widgetsPath(ns)}?timeout=${timeout}`)).status, 200, timeout);

  const watch = await server.watch(`${widgetsPath(ns)}?watch=1&timeout=abc`);
  t.teardown(() => watch.close());
  await createWidget(server, ns, 'w1');
  t.like(await watch.next(), { type: 'ADDED', object: { metadata: { name: 'w1' } } });
});
