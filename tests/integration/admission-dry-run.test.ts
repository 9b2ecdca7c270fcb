// dryRun=All on every write verb: the would-be result is answered, nothing is stored, no watch event is sent.
import test, { type ExecutionContext } from 'ava';
import { createNamespace, createWidget, expectStatus, useTestServer, widget, widgetsPath, type TestServer } from '../helpers/test-server.js';

const server = useTestServer({ storage: 'memory', widgetsCrd: true });

/** Opens a watch of the namespace's widgets from now; `quiet` asserts it saw nothing for 500 ms. */
async function watchFromNow(s: TestServer, ns: string) {
  const list = await s.request('GET', widgetsPath(ns));
  const w = await s.watch(`${widgetsPath(ns)}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
  return {
    async quiet(t: ExecutionContext) {
      await t.throwsAsync(w.next(500), { message: /no watch event/ }, 'no watch event for a dry run');
      w.close();
    },
  };
}

test('POST: the would-be object, with a generated name, uid and creationTimestamp; nothing stored', async (t) => {
  const ns = await createNamespace(server, 'dry');
  const watch = await watchFromNow(server, ns);
  const body = { ...widget(''), metadata: { generateName: 'gen-' } };
  const res = await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body });
  t.is(res.status, 201, res.text);
  t.regex(res.body.metadata.name, /^gen-[a-z0-9]{5}$/);
  t.truthy(res.body.metadata.uid);
  t.truthy(res.body.metadata.creationTimestamp);
  t.is((await server.request('GET', widgetsPath(ns, res.body.metadata.name))).status, 404);
  await watch.quiet(t);
});

for (const [verb, send] of [
  ['PUT', (ns: string, current: any) => server.request('PUT', `${widgetsPath(ns, 'w1')}?dryRun=All`, { body: { ...current, spec: { color: 'green', replicas: 1 } } })],
  [
    'PATCH',
    (ns: string) =>
      server.request('PATCH', `${widgetsPath(ns, 'w1')}?dryRun=All`, { body: { spec: { color: 'green' } }, contentType: 'application/merge-patch+json' }),
  ],
] as const) {
  test(`${verb}: the changed object is answered; the stored one is unchanged`, async (t) => {
    const ns = await createNamespace(server, 'dry');
    const current = await createWidget(server, ns, 'w1');
    const watch = await watchFromNow(server, ns);
    const res = await send(ns, current);
    t.is(res.status, 200, res.text);
    t.is(res.body.spec.color, 'green');
    const stored = await server.request('GET', widgetsPath(ns, 'w1'));
    t.deepEqual(stored.body, current);
    await watch.quiet(t);
  });
}

test('DELETE and deletecollection: the deleted objects are answered; they stay stored', async (t) => {
  const ns = await createNamespace(server, 'dry');
  const w1 = await createWidget(server, ns, 'w1');
  await createWidget(server, ns, 'w2');
  const watch = await watchFromNow(server, ns);
  const del = await server.request('DELETE', `${widgetsPath(ns, 'w1')}?dryRun=All`);
  t.is(del.status, 200, del.text);
  t.is(del.body.metadata.uid, w1.metadata.uid);
  const coll = await server.request('DELETE', `${widgetsPath(ns)}?dryRun=All`);
  t.is(coll.status, 200, coll.text);
  t.deepEqual(coll.body.items.map((i: any) => i.metadata.name).sort(), ['w1', 'w2']);
  const list = await server.request('GET', widgetsPath(ns));
  t.is(list.body.items.length, 2);
  await watch.quiet(t);
});

test('dryRun values other than All, and fieldValidation values kube does not know, are 422 on the verb\'s options, as kube validates them', async (t) => {
  const ns = await createNamespace(server, 'dry');
  const current = await createWidget(server, ns, 'w1');
  const cause = 'dryRun: Unsupported value: []string{"Some", "All"}: supported values: "All"';
  const q = '?dryRun=Some&dryRun=All';
  const answers: [string, Awaited<ReturnType<typeof server.request>>][] = [
    ['CreateOptions', await server.request('POST', `${widgetsPath(ns)}${q}`, { body: widget('w2') })],
    ['UpdateOptions', await server.request('PUT', `${widgetsPath(ns, 'w1')}${q}`, { body: current })],
    ['PatchOptions', await server.request('PATCH', `${widgetsPath(ns, 'w1')}${q}`, { body: {}, contentType: 'application/merge-patch+json' })],
    ['DeleteOptions', await server.request('DELETE', `${widgetsPath(ns, 'w1')}${q}`)],
    ['DeleteOptions', await server.request('DELETE', `${widgetsPath(ns)}${q}`)],
  ];
  for (const [kind, res] of answers) expectStatus(t, res, { code: 422, reason: 'Invalid', message: `${kind}.meta.k8s.io "" is invalid: ${cause}` });
  const strict = await server.request('POST', `${widgetsPath(ns)}?fieldValidation=strict`, { body: widget('w3') });
  expectStatus(t, strict, { code: 422, reason: 'Invalid', message: 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"' });
  t.is((await server.request('GET', widgetsPath(ns))).body.items.length, 1);
});
