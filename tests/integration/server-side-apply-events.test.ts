/**
 * Server-side apply across the two Event APIs: core/v1 and events.k8s.io/v1 serve the same stored Events, and each
 * managedFields entry's fieldsV1 are in the version its apiVersion names. As kube's field manager does (its version
 * converter), a write through one API compares the objects in each other manager's version: fields another manager
 * owns under another name are a conflict naming it, other fields are not.
 */
import test from 'ava';
import { createNamespace, useTestServer } from '../helpers/test-server.js';
import { apply } from '../helpers/ssa.js';

const server = useTestServer();

const corePath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/events/${name}`;
const v1Path = (ns: string, name: string) => `/apis/events.k8s.io/v1/namespaces/${ns}/events/${name}`;

function newEvent(ns: string, name: string) {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    eventTime: '2026-01-01T00:00:00.000001Z',
    reportingController: 'example.com/controller',
    reportingInstance: 'controller-0',
    action: 'Reconcile',
    reason: 'Reconciled',
    regarding: { kind: 'ConfigMap', namespace: ns, name: 'target', apiVersion: 'v1' },
    note: 'first',
    type: 'Normal',
  };
}

type Entry = { manager: string; operation: string; apiVersion: string; fieldsV1: Record<string, any> };
const entryOf = (obj: any, manager: string): Entry | undefined => obj.metadata.managedFields?.find((e: Entry) => e.manager === manager);

test('managers applying through either API own their fields in their own version, read through both', async (t) => {
  const ns = await createNamespace(server, 'ssa-events');
  const a = await apply(server, v1Path(ns, 'e1'), newEvent(ns, 'e1'), { manager: 'a' });
  t.is(a.status, 201, a.text);

  // b applies through core/v1 a field a does not own: no conflict.
  const b = await apply(server, corePath(ns, 'e1'), { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: ns, labels: { team: 'b' } } }, { manager: 'b' });
  t.is(b.status, 200, b.text);
  t.is(b.body.message, 'first');
  t.deepEqual(b.body.metadata.labels, { team: 'b' });

  for (const path of [corePath(ns, 'e1'), v1Path(ns, 'e1')]) {
    const got = await server.request('GET', path);
    t.is(got.status, 200);
    const ea = entryOf(got.body, 'a');
    const eb = entryOf(got.body, 'b');
    t.like(ea, { operation: 'Apply', apiVersion: 'events.k8s.io/v1' }, path);
    t.truthy(ea?.fieldsV1['f:note'], `${path}: a owns note, in events.k8s.io/v1`);
    t.truthy(ea?.fieldsV1['f:regarding'], path);
    t.falsy(ea?.fieldsV1['f:message'], path);
    t.like(eb, { operation: 'Apply', apiVersion: 'v1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:team': {} } } } }, path);
    t.deepEqual(Object.keys(eb?.fieldsV1 ?? {}), ['f:metadata'], `${path}: b owns only its label`);
  }

  // The reverse: b, through core/v1, owns a field a then applies through events.k8s.io/v1 another one of.
  const b2 = await apply(
    server,
    corePath(ns, 'e1'),
    { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: ns, labels: { team: 'b' } }, series: { count: 2, lastObservedTime: '2026-01-01T00:00:02.000000Z' } },
    { manager: 'b' },
  );
  t.is(b2.status, 200, b2.text);
  const a2 = await apply(server, v1Path(ns, 'e1'), { ...newEvent(ns, 'e1'), metadata: { name: 'e1', namespace: ns, annotations: { by: 'a' } } }, { manager: 'a' });
  t.is(a2.status, 200, a2.text);
  t.like(a2.body, { series: { count: 2 }, note: 'first', metadata: { labels: { team: 'b' }, annotations: { by: 'a' } } });

  // An update through core/v1 that changes message takes note from a (compared in a's version), and nothing else.
  const current = (await server.request('GET', corePath(ns, 'e1'))).body;
  const put = await server.request('PUT', `${corePath(ns, 'e1')}?fieldManager=c`, { body: { ...current, message: 'changed by c' } });
  t.is(put.status, 200, put.text);
  const ea = entryOf(put.body, 'a');
  t.falsy(ea?.fieldsV1['f:note'], 'a lost note to c');
  t.truthy(ea?.fieldsV1['f:reason'], 'a keeps reason');
  t.like(entryOf(put.body, 'c'), { operation: 'Update', apiVersion: 'v1', fieldsV1: { 'f:message': {} } });
});

test('a field another manager applied through the other API is a conflict naming that manager, in its version', async (t) => {
  const ns = await createNamespace(server, 'ssa-events');
  t.is((await apply(server, v1Path(ns, 'e2'), newEvent(ns, 'e2'), { manager: 'a' })).status, 201);

  // message (core/v1) is note (events.k8s.io/v1), which a applied.
  const conflict = await apply(server, corePath(ns, 'e2'), { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e2', namespace: ns }, message: 'second' }, { manager: 'b' });
  t.is(conflict.status, 409, conflict.text);
  t.is(conflict.body.reason, 'Conflict');
  t.is(conflict.body.message, 'Apply failed with 1 conflict: conflict with "a": .note');
  t.deepEqual(conflict.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.note' }]);
  t.is((await server.request('GET', v1Path(ns, 'e2'))).body.note, 'first', 'nothing written');

  // Forced, b takes the field: a no longer owns note; b owns message, in core/v1.
  const forced = await apply(server, corePath(ns, 'e2'), { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e2', namespace: ns }, message: 'second' }, { manager: 'b', force: true });
  t.is(forced.status, 200, forced.text);
  const got = await server.request('GET', v1Path(ns, 'e2'));
  t.is(got.body.note, 'second');
  t.falsy(entryOf(got.body, 'a')?.fieldsV1['f:note']);
  t.truthy(entryOf(got.body, 'a')?.fieldsV1['f:reason'], 'a keeps what b did not take');
  t.like(entryOf(got.body, 'b'), { apiVersion: 'v1', fieldsV1: { 'f:message': {} } });

  // The reverse direction: a, through events.k8s.io/v1, changes the note b now owns as message.
  const back = await apply(server, v1Path(ns, 'e2'), { ...newEvent(ns, 'e2'), note: 'third' }, { manager: 'a' });
  t.is(back.status, 409, back.text);
  t.is(back.body.message, 'Apply failed with 1 conflict: conflict with "b": .message');
});
