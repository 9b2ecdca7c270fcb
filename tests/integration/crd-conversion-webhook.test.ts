// CRD conversion webhooks (apiextensions.k8s.io/v1 strategy Webhook): objects are stored in the storage version and
// converted by a real HTTPS webhook for every other version, on reads and writes, as kube-apiserver does.
import test from 'ava';
import { createNamespace, installCrd, useTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookServer, type RecordedRequest, type TestWebhookServer } from '../helpers/webhook-server.js';
import { convertGadget, gadget, gadgetsCrd, gadgetsGroup, gadgetsPath, reviewAnswer } from '../helpers/conversion-webhook.js';

const server = useTestServer();
let hooks: TestWebhookServer;

/**
 * The webhook: converts spec.color <-> spec.colour. In namespaces named `meta-…` it also changes metadata (labels
 * and annotations, which kube keeps, and other fields, which kube restores); in `uid-…` it changes the uid.
 */
test.before(async () => {
  hooks = await startWebhookServer();
  hooks.handle('/convert', (review) => {
    const desired: string = review.request.desiredAPIVersion;
    return reviewAnswer(
      review,
      review.request.objects.map((o: any) => {
        const out = convertGadget(o, desired);
        if (o.metadata.namespace.startsWith('meta-')) {
          out.metadata.labels = { ...out.metadata.labels, 'converted-to': desired.split('/')[1] };
          out.metadata.annotations = { note: 'from the webhook' };
          out.metadata.finalizers = ['example.com/foo'];
          out.metadata.generation = 42;
          out.metadata.garbage = 'x';
        }
        if (o.metadata.namespace.startsWith('uid-')) out.metadata.uid = 'changed';
        return out;
      }),
    );
  });
  await installCrd(server, gadgetsCrd({ url: hooks.url('/convert'), caBundle: hooks.caBundle }));
});

test.after.always(async () => {
  await hooks?.close();
});

/** The ConversionReviews received for objects of namespace `ns`, from position `from` on. */
function reviewsFor(ns: string, from = 0): RecordedRequest[] {
  return hooks.requestsTo('/convert').slice(from).filter((r) => r.body?.request?.objects?.some((o: any) => o.metadata?.namespace === ns));
}

async function create(t: any, s: TestServer, version: 'v1' | 'v2', ns: string, name: string, colour: string): Promise<any> {
  const res = await s.request('POST', gadgetsPath(version, ns), { body: gadget(version, name, colour) });
  t.is(res.status, 201, res.text);
  return res.body;
}

test('an object created in v2 is converted to v1 for storage and back to v2 for the response', async (t) => {
  const ns = await createNamespace(server, 'conv');
  const created = await create(t, server, 'v2', ns, 'g1', 'red');
  t.like(created, { apiVersion: `${gadgetsGroup}/v2`, kind: 'Gadget', spec: { colour: 'red', size: 1 } });
  t.false('color' in created.spec);

  const [toStorage, toResponse, ...more] = reviewsFor(ns);
  t.is(more.length, 0);
  t.like(toStorage!.body.request, { desiredAPIVersion: `${gadgetsGroup}/v1` });
  t.like(toStorage!.body.request.objects[0], { apiVersion: `${gadgetsGroup}/v2`, spec: { colour: 'red' } });
  // The response is the stored object (in v1, as stored) converted back.
  t.like(toResponse!.body.request, { desiredAPIVersion: `${gadgetsGroup}/v2` });
  t.like(toResponse!.body.request.objects[0], { apiVersion: `${gadgetsGroup}/v1`, spec: { color: 'red' } });
});

test('an object created in v1 reads as v1 without the webhook and as v2 through it', async (t) => {
  const ns = await createNamespace(server, 'conv');
  await create(t, server, 'v1', ns, 'g1', 'green');
  t.is(reviewsFor(ns).length, 0, 'a write and its response in the storage version need no conversion');

  const v1 = await server.request('GET', gadgetsPath('v1', ns, 'g1'));
  t.is(v1.status, 200);
  t.like(v1.body, { apiVersion: `${gadgetsGroup}/v1`, spec: { color: 'green', size: 1 } });
  t.is(reviewsFor(ns).length, 0);

  const v2 = await server.request('GET', gadgetsPath('v2', ns, 'g1'));
  t.is(v2.status, 200);
  t.like(v2.body, { apiVersion: `${gadgetsGroup}/v2`, kind: 'Gadget', metadata: { name: 'g1', namespace: ns }, spec: { colour: 'green', size: 1 } });
  const [review] = reviewsFor(ns);
  t.is(review!.query['timeout'], '30s');
  t.is(review!.body.apiVersion, 'apiextensions.k8s.io/v1');
  t.is(review!.body.kind, 'ConversionReview');
  t.regex(review!.body.request.uid, /^[0-9a-f-]{36}$/);
  t.is(review!.body.request.desiredAPIVersion, `${gadgetsGroup}/v2`);
  t.is(review!.body.request.objects.length, 1);
});

test('a list in v2 converts every item in one ConversionReview; a list in v1 needs none', async (t) => {
  const ns = await createNamespace(server, 'conv');
  await create(t, server, 'v1', ns, 'a', 'red');
  await create(t, server, 'v2', ns, 'b', 'green');
  await create(t, server, 'v1', ns, 'c', 'blue');
  const before = hooks.requestsTo('/convert').length;

  const v2 = await server.request('GET', gadgetsPath('v2', ns));
  t.is(v2.status, 200);
  t.is(v2.body.apiVersion, `${gadgetsGroup}/v2`);
  t.is(v2.body.kind, 'GadgetList');
  t.deepEqual(
    v2.body.items.map((i: any) => [i.apiVersion, i.metadata.name, i.spec.colour]),
    [`${gadgetsGroup}/v2`].flatMap((v) => [
      [v, 'a', 'red'],
      [v, 'b', 'green'],
      [v, 'c', 'blue'],
    ]),
  );
  const listReviews = reviewsFor(ns, before);
  t.is(listReviews.length, 1);
  t.deepEqual(
    listReviews[0]!.body.request.objects.map((o: any) => [o.apiVersion, o.metadata.name]),
    [
      [`${gadgetsGroup}/v1`, 'a'],
      [`${gadgetsGroup}/v1`, 'b'],
      [`${gadgetsGroup}/v1`, 'c'],
    ],
    'every object is stored in the storage version, whatever version it was written in',
  );

  const v1 = await server.request('GET', gadgetsPath('v1', ns));
  t.deepEqual(
    v1.body.items.map((i: any) => i.spec.color),
    ['red', 'green', 'blue'],
  );
  t.is(reviewsFor(ns, before).length, 1);
});

test('a watch in v2 sees writes made in v1, in order; its watchers share one conversion per event', async (t) => {
  const ns = await createNamespace(server, 'conv');
  const path = `${gadgetsPath('v2', ns)}?watch=true&resourceVersion=0`;
  const [w1, w2] = await Promise.all([server.watch(path), server.watch(path)]);
  await create(t, server, 'v1', ns, 'a', 'red');
  await create(t, server, 'v1', ns, 'b', 'green');
  const patched = await server.request('PATCH', gadgetsPath('v1', ns, 'a'), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
  t.is(patched.status, 200);
  for (const w of [w1!, w2!]) {
    const events = [await w.next(), await w.next(), await w.next()];
    t.deepEqual(
      events.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name, e.object.spec.colour]),
      [
        ['ADDED', `${gadgetsGroup}/v2`, 'a', 'red'],
        ['ADDED', `${gadgetsGroup}/v2`, 'b', 'green'],
        ['MODIFIED', `${gadgetsGroup}/v2`, 'a', 'blue'],
      ],
    );
    w.close();
  }
  // Each event's object was sent once, whatever the number of watchers.
  const sent = reviewsFor(ns).flatMap((r) => r.body.request.objects.map((o: any) => `${o.metadata.name}@${o.metadata.resourceVersion}`));
  t.is(sent.length, 3, sent.join(', '));
  t.is(new Set(sent).size, 3);
});

test('a watch in v2 starts with the current state, converted in one review', async (t) => {
  const ns = await createNamespace(server, 'conv');
  await create(t, server, 'v1', ns, 'a', 'red');
  await create(t, server, 'v1', ns, 'b', 'green');
  const w = await server.watch(`${gadgetsPath('v2', ns)}?watch=true`);
  const events = [await w.next(), await w.next()];
  w.close();
  t.deepEqual(
    events.map((e) => [e.type, e.object.metadata.name, e.object.spec.colour]),
    [
      ['ADDED', 'a', 'red'],
      ['ADDED', 'b', 'green'],
    ],
  );
  t.is(reviewsFor(ns).length, 1);
});

test('merge patch, update and server-side apply in v2 of an object stored in v1', async (t) => {
  const ns = await createNamespace(server, 'conv');
  await create(t, server, 'v1', ns, 'g1', 'red');

  const patched = await server.request('PATCH', gadgetsPath('v2', ns, 'g1'), { body: { spec: { colour: 'blue' } }, contentType: 'application/merge-patch+json' });
  t.is(patched.status, 200, patched.text);
  t.like(patched.body, { apiVersion: `${gadgetsGroup}/v2`, spec: { colour: 'blue' } });
  t.like((await server.request('GET', gadgetsPath('v1', ns, 'g1'))).body, { spec: { color: 'blue' } });

  const put = await server.request('PUT', gadgetsPath('v2', ns, 'g1'), { body: { ...patched.body, spec: { colour: 'black', size: 3 } } });
  t.is(put.status, 200, put.text);
  t.like(put.body, { apiVersion: `${gadgetsGroup}/v2`, metadata: { generation: 3 }, spec: { colour: 'black', size: 3 } });
  t.like((await server.request('GET', gadgetsPath('v1', ns, 'g1'))).body, { spec: { color: 'black', size: 3 } });

  const apply = (name: string, colour: string) =>
    server.request('PATCH', `${gadgetsPath('v2', ns, name)}?fieldManager=tester&force=true`, {
      rawBody: JSON.stringify(gadget('v2', name, colour)),
      contentType: 'application/apply-patch+yaml',
    });
  const applied = await apply('g1', 'white');
  t.is(applied.status, 200, applied.text);
  t.like(applied.body, { apiVersion: `${gadgetsGroup}/v2`, spec: { colour: 'white', size: 3 } });
  const entry = applied.body.metadata.managedFields.find((m: any) => m.manager === 'tester');
  t.like(entry, { operation: 'Apply', apiVersion: `${gadgetsGroup}/v2` });
  t.like((await server.request('GET', gadgetsPath('v1', ns, 'g1'))).body, { spec: { color: 'white' } });

  const createdByApply = await apply('g2', 'pink');
  t.is(createdByApply.status, 201, createdByApply.text);
  t.like((await server.request('GET', gadgetsPath('v1', ns, 'g2'))).body, { spec: { color: 'pink' } });
});

test('status updates and deletes through v2 answer in v2', async (t) => {
  const ns = await createNamespace(server, 'conv');
  await create(t, server, 'v1', ns, 'g1', 'red');
  const status = await server.request('PATCH', `${gadgetsPath('v2', ns, 'g1')}/status`, { body: { status: { ready: true } }, contentType: 'application/merge-patch+json' });
  t.is(status.status, 200, status.text);
  t.like(status.body, { apiVersion: `${gadgetsGroup}/v2`, spec: { colour: 'red' }, status: { ready: true } });

  const deleted = await server.request('DELETE', gadgetsPath('v2', ns, 'g1'));
  t.is(deleted.status, 200, deleted.text);
  t.like(deleted.body, { apiVersion: `${gadgetsGroup}/v2`, spec: { colour: 'red' }, status: { ready: true } });
  t.is((await server.request('GET', gadgetsPath('v1', ns, 'g1'))).status, 404);
});

test('Table and PartialObjectMetadata of v2 show the converted object', async (t) => {
  const ns = await createNamespace(server, 'conv');
  await create(t, server, 'v1', ns, 'g1', 'red');
  const table = await server.request('GET', gadgetsPath('v2', ns), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.is(table.status, 200);
  t.deepEqual(
    table.body.columnDefinitions.map((c: any) => c.name),
    ['Name', 'Colour'],
  );
  t.deepEqual(table.body.rows[0].cells.slice(0, 2), ['g1', 'red']);

  const withObject = await server.request('GET', `${gadgetsPath('v2', ns, 'g1')}?includeObject=Object`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.like(withObject.body.rows[0].object, { apiVersion: `${gadgetsGroup}/v2`, spec: { colour: 'red' } });

  const partial = await server.request('GET', gadgetsPath('v2', ns, 'g1'), { headers: { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' } });
  t.is(partial.status, 200);
  t.like(partial.body, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'g1', namespace: ns } });
});

test('a webhook may change labels and annotations; other metadata changes are undone', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const created = await create(t, server, 'v1', ns, 'g1', 'red');
  const v2 = await server.request('GET', gadgetsPath('v2', ns, 'g1'));
  t.is(v2.status, 200, v2.text);
  t.deepEqual(v2.body.metadata.labels, { 'converted-to': 'v2' });
  t.deepEqual(v2.body.metadata.annotations, { note: 'from the webhook' });
  t.is(v2.body.metadata.generation, created.metadata.generation);
  t.is(v2.body.metadata.finalizers, undefined);
  t.is(v2.body.metadata.garbage, undefined);
  t.is(v2.body.metadata.uid, created.metadata.uid);
});

test('a webhook that changes the uid fails the request with kube 500', async (t) => {
  const ns = await createNamespace(server, 'uid');
  await create(t, server, 'v1', ns, 'g1', 'red');
  const res = await server.request('GET', gadgetsPath('v2', ns, 'g1'));
  t.is(res.status, 500);
  t.like(res.body, { kind: 'Status', status: 'Failure', code: 500 });
  t.false('reason' in res.body);
  t.regex(res.body.message, new RegExp(`^conversion webhook for ${gadgetsGroup}/v1, Kind=Gadget returned invalid object: must have the same UID: [0-9a-f-]{36} != changed$`));
});
