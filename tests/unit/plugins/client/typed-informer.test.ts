// The typed informer against a scripted server on loopback: it lists, watches from the list's version with bookmarks,
// and when the watch is refused with 410 Gone it lists again and reports the differences as adds, updates, deletes.
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, TypedClient, TypedInformer } from '../../../../index.js';

interface Widget {
  apiVersion: 'example.com/v1';
  kind: 'Widget';
  metadata: { name: string; namespace: string; resourceVersion: string };
  spec?: { color?: string };
}
const widget = (name: string, resourceVersion: string, color: string): Widget => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'ns', resourceVersion },
  spec: { color },
});
const lists = [
  { items: [widget('a', '1', 'red'), widget('b', '2', 'red')], resourceVersion: '10' },
  { items: [widget('a', '11', 'blue'), widget('c', '12', 'red')], resourceVersion: '20' },
];
const gone = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 10 (15)', reason: 'Expired', code: 410 };

test('after a 410 Gone the informer lists again and reports what changed', async (t) => {
  const requests: string[] = [];
  let resumed!: () => void;
  const watching = new Promise<void>((resolve) => (resumed = resolve));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(`${url.pathname}?${url.searchParams}`);
    res.setHeader('content-type', 'application/json');
    if (url.searchParams.get('watch') !== 'true') {
      const list = lists.shift()!;
      res.end(JSON.stringify({ apiVersion: 'example.com/v1', kind: 'WidgetList', metadata: { resourceVersion: list.resourceVersion }, items: list.items }));
    } else if (url.searchParams.get('resourceVersion') === '10') {
      res.end(`${JSON.stringify({ type: 'ERROR', object: gone })}\n`);
    } else {
      res.write(`${JSON.stringify({ type: 'BOOKMARK', object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { resourceVersion: '25' } } })}\n`);
      resumed();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const api = new ApiClient({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, insecureSkipTlsVerify: false });
  t.teardown(() => api.close());
  const client = new TypedClient<Widget>(api, { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true }, 'ns');
  const informer = new TypedInformer(client, { labelSelector: 'tier=gold' });
  const seen: string[] = [];
  informer.on({
    add: (w) => seen.push(`add ${w.metadata.name}`),
    update: (old, w) => seen.push(`update ${w.metadata.name} ${old.spec?.color}→${w.spec?.color}`),
    delete: (w) => seen.push(`delete ${w.metadata.name}`),
    error: (err) => seen.push(`error ${String(err)}`),
  });
  await informer.start();
  await watching;
  await informer.stop();

  t.deepEqual(seen, ['add a', 'add b', 'update a red→blue', 'add c', 'delete b']);
  t.deepEqual(
    informer.list().map((w) => `${w.metadata.name} ${w.spec?.color}`),
    ['a blue', 'c red'],
  );
  const path = '/apis/example.com/v1/namespaces/ns/widgets';
  t.deepEqual(requests, [
    `${path}?labelSelector=tier%3Dgold`,
    `${path}?labelSelector=tier%3Dgold&resourceVersion=10&allowWatchBookmarks=true&watch=true`,
    `${path}?labelSelector=tier%3Dgold`,
    `${path}?labelSelector=tier%3Dgold&resourceVersion=20&allowWatchBookmarks=true&watch=true`,
  ]);
});
