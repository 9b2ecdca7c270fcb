/**
 * Boolean query parameters read as kube's parameter codec reads them: "0" and "false" in any letter case are false,
 * any other value — "True" (the Python client's spelling), "yes", an empty value, a bare `?name` — is true, and an
 * absent parameter is unset.
 */
import test from 'ava';
import { createNamespace, createWidget, useTestServer, widgetsPath, type TestResponse } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

/** What follows the parameter's name in the query: spellings kube reads as true (the last one a bare name), then false. */
const trueSpellings = ['=True', '=TRUE', '=yes', '=1', '=true', '=', ''];
const falseSpellings = ['=0', '=False', '=false', '=FALSE'];

/** The events of a watch response (JSON lines), or undefined when the answer is not a watch stream. */
function watchEvents(res: TestResponse): { type: string; object: any }[] | undefined {
  const lines = res.text.split('\n').filter((l) => l !== '');
  const events = lines.map((l) => JSON.parse(l));
  return events.length > 0 && events.every((e) => typeof e.type === 'string' && 'object' in e) ? events : undefined;
}

test('watch with any spelling kube reads as true streams events; a false one answers the list', async (t) => {
  const ns = await createNamespace(server, 'qbool');
  await createWidget(server, ns, 'w1');
  const ask = (spelling: string) => server.request('GET', `${widgetsPath(ns)}?watch${spelling}&timeoutSeconds=1`);
  const watches = await Promise.all(trueSpellings.map(ask));
  watches.forEach((res, i) => {
    t.is(res.status, 200, `watch${trueSpellings[i]}`);
    t.deepEqual(watchEvents(res)?.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'w1']], `watch${trueSpellings[i]}: ${res.text.slice(0, 200)}`);
  });
  for (const spelling of falseSpellings) {
    const res = await ask(spelling);
    t.is(res.status, 200, `watch${spelling}`);
    t.is(res.body?.kind, 'WidgetList', `watch${spelling}: ${res.text.slice(0, 200)}`);
  }
});

test('a named GET with watch=true is a get of the object, as kube routes it', async (t) => {
  const ns = await createNamespace(server, 'qbool');
  const w1 = await createWidget(server, ns, 'w1');
  // timeoutSeconds would only bound a watch: a get ignores it.
  const res = await server.request('GET', `${widgetsPath(ns, 'w1')}?watch=true&timeoutSeconds=1`);
  t.is(res.status, 200, res.text);
  t.is(res.body?.kind, 'Widget');
  t.is(res.body?.metadata?.uid, w1.metadata.uid);
});

test('allowWatchBookmarks: a true spelling ends the initial events with a bookmark, a false one does not', async (t) => {
  const ns = await createNamespace(server, 'qbool');
  await createWidget(server, ns, 'w1');
  const ask = (spelling: string) => server.request('GET', `${widgetsPath(ns)}?watch=1&allowWatchBookmarks${spelling}&timeoutSeconds=1`);
  const answers = await Promise.all([...trueSpellings, ...falseSpellings].map(ask));
  answers.forEach((res, i) => {
    const spelling = [...trueSpellings, ...falseSpellings][i]!;
    const expected = i < trueSpellings.length ? ['ADDED', 'BOOKMARK'] : ['ADDED'];
    t.deepEqual(watchEvents(res)?.map((e) => e.type), expected, `allowWatchBookmarks${spelling}: ${res.text.slice(0, 200)}`);
  });
});

test('sendInitialEvents: an empty value is present and true (kube\'s *bool), unlike an absent one; False is false', async (t) => {
  const ns = await createNamespace(server, 'qbool');
  await createWidget(server, ns, 'w1');
  const streaming = await server.request('GET', `${widgetsPath(ns)}?watch=1&sendInitialEvents=&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=1&timeoutSeconds=1`);
  const events = watchEvents(streaming);
  t.deepEqual(events?.map((e) => e.type), ['ADDED', 'BOOKMARK'], streaming.text.slice(0, 300));
  t.is(events?.[1]?.object?.metadata?.annotations?.['k8s.io/initial-events-end'], 'true');

  const list = await server.request('GET', `${widgetsPath(ns)}?sendInitialEvents=`);
  t.is(list.status, 422, list.text);
  t.is(list.body?.message, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
  const plain = await server.request('GET', widgetsPath(ns));
  t.is(plain.status, 200, 'absent: a plain list');

  // False: the watch starts after the current state, without initial events.
  const fromNow = await server.request('GET', `${widgetsPath(ns)}?watch=1&sendInitialEvents=False&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`);
  t.is(fromNow.status, 200, fromNow.text);
  t.is(fromNow.text, '', 'no events');
});
