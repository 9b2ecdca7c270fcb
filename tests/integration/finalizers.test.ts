/** Graceful deletion with finalizers, and delete preconditions. */
import test from 'ava';
import { createNamespace, createWidget, expectStatus, useTestServer, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const hold = 'example.com/hold';

function mergePatch(ns: string, name: string, body: unknown) {
  return server.request('PATCH', widgetsPath(ns, name), { body, contentType: 'application/merge-patch+json' });
}

test('DELETE of an object with finalizers answers 200 with the object marked for deletion', async (t) => {
  // kube-apiserver (endpoints/handlers/delete.go) answers 202 only when orphanDependents=false was asked for;
  // an object kept by its finalizers is otherwise a 200 with the object.
  const ns = await createNamespace(server, 'fin');
  await createWidget(server, ns, 'w1', { finalizers: [hold] });
  const res = await server.request('DELETE', widgetsPath(ns, 'w1'));
  t.is(res.status, 200);
  t.is(res.body.kind, 'Widget');
  t.regex(res.body.metadata.deletionTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.is(res.body.metadata.deletionGracePeriodSeconds, 0);
  t.deepEqual(res.body.metadata.finalizers, [hold]);
  // registry.markAsDeleting bumps generation when it first sets deletionTimestamp.
  t.is(res.body.metadata.generation, 2);
});

test('an object kept by a finalizer stays readable with its deletionTimestamp', async (t) => {
  const ns = await createNamespace(server, 'fin');
  const created = await createWidget(server, ns, 'w1', { finalizers: [hold] });
  const del = await server.request('DELETE', widgetsPath(ns, 'w1'));
  t.true(del.status === 200 || del.status === 202, `DELETE answered ${del.status}`);

  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.status, 200);
  t.is(get.body.metadata.uid, created.metadata.uid);
  t.is(get.body.metadata.deletionTimestamp, del.body.metadata.deletionTimestamp);
  t.is(get.body.metadata.deletionGracePeriodSeconds, 0);
  t.deepEqual(get.body.metadata.finalizers, [hold]);

  const list = await server.request('GET', widgetsPath(ns));
  t.deepEqual(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['w1']);

  // A second DELETE changes nothing.
  const again = await server.request('DELETE', widgetsPath(ns, 'w1'));
  t.true(again.status === 200 || again.status === 202, `second DELETE answered ${again.status}`);
  t.is(again.body.metadata.deletionTimestamp, del.body.metadata.deletionTimestamp);
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).body.metadata.resourceVersion, get.body.metadata.resourceVersion);
});

test('other changes to an object being deleted are still allowed', async (t) => {
  const ns = await createNamespace(server, 'fin');
  await createWidget(server, ns, 'w1', { finalizers: [hold] });
  await server.request('DELETE', widgetsPath(ns, 'w1'));
  const res = await mergePatch(ns, 'w1', { metadata: { labels: { state: 'draining' } }, spec: { color: 'grey' } });
  t.is(res.status, 200);
  t.is(res.body.spec.color, 'grey');
  t.truthy(res.body.metadata.deletionTimestamp);
});

test('no new finalizer can be added to an object being deleted', async (t) => {
  const ns = await createNamespace(server, 'fin');
  await createWidget(server, ns, 'w1', { finalizers: [hold] });
  await server.request('DELETE', widgetsPath(ns, 'w1'));
  const res = await mergePatch(ns, 'w1', { metadata: { finalizers: [hold, 'example.com/other'] } });
  const cause = 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/other"}';
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `Widget.example.com "w1" is invalid: metadata.finalizers: ${cause}` });
  t.deepEqual(res.body.details.causes, [{ reason: 'FieldValueForbidden', message: cause, field: 'metadata.finalizers' }]);
  t.deepEqual((await server.request('GET', widgetsPath(ns, 'w1'))).body.metadata.finalizers, [hold]);
});

test('removing the last finalizer of an object being deleted deletes it', async (t) => {
  const ns = await createNamespace(server, 'fin');
  await createWidget(server, ns, 'w1', { finalizers: [hold, 'example.com/second'] });
  await server.request('DELETE', widgetsPath(ns, 'w1'));

  const one = await mergePatch(ns, 'w1', { metadata: { finalizers: ['example.com/second'] } });
  t.is(one.status, 200);
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).status, 200, 'still there with one finalizer left');

  const last = await mergePatch(ns, 'w1', { metadata: { finalizers: null } });
  t.is(last.status, 200);
  t.is(last.body.metadata.name, 'w1');
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  expectStatus(t, get, { code: 404, reason: 'NotFound', message: 'widgets.example.com "w1" not found' });
});

test('finalizers on an object that is not being deleted can be removed without deleting it', async (t) => {
  const ns = await createNamespace(server, 'fin');
  await createWidget(server, ns, 'w1', { finalizers: [hold] });
  const res = await mergePatch(ns, 'w1', { metadata: { finalizers: null } });
  t.is(res.status, 200);
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.status, 200);
  t.is(get.body.metadata.finalizers, undefined);
  t.is(get.body.metadata.deletionTimestamp, undefined);
});

test('DELETE preconditions: a wrong uid or resourceVersion is 409 Conflict and keeps the object', async (t) => {
  const ns = await createNamespace(server, 'fin');
  const created = await createWidget(server, ns, 'w1');
  const wrongUid = await server.request('DELETE', widgetsPath(ns, 'w1'), {
    body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'not-the-uid' } },
  });
  expectStatus(t, wrongUid, { code: 409, reason: 'Conflict' });
  const wrongRv = await server.request('DELETE', widgetsPath(ns, 'w1'), {
    body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { resourceVersion: '1' } },
  });
  expectStatus(t, wrongRv, { code: 409, reason: 'Conflict' });
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).status, 200);

  const right = await server.request('DELETE', widgetsPath(ns, 'w1'), {
    body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } },
  });
  t.is(right.status, 200);
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).status, 404);
});

test('DELETE precondition conflicts have kube-apiserver text', async (t) => {
  // rest.BeforeDelete checks the preconditions first and qualifies the conflict with the object's kind.
  const ns = await createNamespace(server, 'fin');
  const created = await createWidget(server, ns, 'w1');
  const { uid, resourceVersion } = created.metadata;
  const wrongUid = await server.request('DELETE', widgetsPath(ns, 'w1'), { body: { preconditions: { uid: 'not-the-uid' } } });
  expectStatus(t, wrongUid, {
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on Widget.example.com "w1": the UID in the precondition (not-the-uid) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
  });
  const wrongRv = await server.request('DELETE', widgetsPath(ns, 'w1'), { body: { preconditions: { resourceVersion: '1' } } });
  expectStatus(t, wrongRv, {
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on Widget.example.com "w1": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`,
  });
});
