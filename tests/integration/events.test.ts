/**
 * Events over HTTP: core/v1 and events.k8s.io/v1 serve the same stored objects (written through one, read, listed and
 * watched through the other), kube's validation texts for both APIs, field selectors, bad input, expiry.
 */
import test from 'ava';
import { createNamespace, expectStatus, names, startTestServer, useTestServer } from '../helpers/test-server.js';
import { sendBinary } from '../helpers/binary-request.js';
import { KubeProtobufClient } from '../helpers/kube-protobuf-client.js';

const server = useTestServer();

const corePath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/events${name ? `/${name}` : ''}`;
const v1Path = (ns: string, name?: string) => `/apis/events.k8s.io/v1/namespaces/${ns}/events${name ? `/${name}` : ''}`;

function coreEvent(ns: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    involvedObject: { kind: 'ConfigMap', namespace: ns, name: 'target', uid: 'u-1', apiVersion: 'v1' },
    reason: 'Tested',
    message: 'a test event',
    source: { component: 'tester', host: 'node-1' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:00:01Z',
    count: 2,
    type: 'Normal',
    ...extra,
  };
}

function newEvent(ns: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    eventTime: '2026-01-01T00:00:00.000001Z',
    reportingController: 'example.com/controller',
    reportingInstance: 'controller-0',
    action: 'Reconcile',
    reason: 'Reconciled',
    regarding: { kind: 'Widget', namespace: ns, name: 'w1', apiVersion: 'example.com/v1' },
    note: 'done',
    type: 'Normal',
    ...extra,
  };
}

test('an Event created through events.k8s.io/v1 is the core/v1 Event of the same name, field by field, its MicroTimes in UTC', async (t) => {
  const ns = await createNamespace(server, 'ev');
  const created = await server.request('POST', v1Path(ns), { body: newEvent(ns, 'e1', { series: { count: 2, lastObservedTime: '2026-01-01T01:00:02.000000+01:00' } }) });
  t.is(created.status, 201, created.text);
  t.is(created.body.apiVersion, 'events.k8s.io/v1');
  const core = await server.request('GET', corePath(ns, 'e1'));
  t.is(core.status, 200);
  t.like(core.body, {
    apiVersion: 'v1',
    kind: 'Event',
    involvedObject: { kind: 'Widget', namespace: ns, name: 'w1', apiVersion: 'example.com/v1' },
    message: 'done',
    reportingComponent: 'example.com/controller',
    reportingInstance: 'controller-0',
    action: 'Reconcile',
    reason: 'Reconciled',
    eventTime: '2026-01-01T00:00:00.000001Z',
    series: { count: 2, lastObservedTime: '2026-01-01T00:00:02.000000Z' },
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
  });
  t.is(core.body.metadata.uid, created.body.metadata.uid);
  t.is(core.body.metadata.resourceVersion, created.body.metadata.resourceVersion);
});

test('a core/v1 Event is read through events.k8s.io/v1 with the deprecated fields', async (t) => {
  const ns = await createNamespace(server, 'ev');
  t.is((await server.request('POST', corePath(ns), { body: coreEvent(ns, 'old') })).status, 201);
  const res = await server.request('GET', v1Path(ns, 'old'));
  t.is(res.status, 200, res.text);
  t.like(res.body, {
    apiVersion: 'events.k8s.io/v1',
    regarding: { kind: 'ConfigMap', name: 'target' },
    note: 'a test event',
    deprecatedSource: { component: 'tester', host: 'node-1' },
    deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
    deprecatedLastTimestamp: '2026-01-01T00:00:01Z',
    deprecatedCount: 2,
    eventTime: null,
  });
  t.false('message' in res.body);
  t.false('involvedObject' in res.body);
  const list = await server.request('GET', v1Path(ns));
  t.deepEqual(names(list.body), ['old']);
});

test('a watch of either group sees the writes of the other', async (t) => {
  const ns = await createNamespace(server, 'ev');
  const list = await server.request('GET', corePath(ns));
  const coreWatch = await server.watch(`${corePath(ns)}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
  const v1Watch = await server.watch(`${v1Path(ns)}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
  try {
    await server.request('POST', v1Path(ns), { body: newEvent(ns, 'w1') });
    await server.request('POST', corePath(ns), { body: coreEvent(ns, 'w2') });
    const seenByCore = [await coreWatch.next(), await coreWatch.next()];
    t.deepEqual(seenByCore.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name]), [['ADDED', 'v1', 'w1'], ['ADDED', 'v1', 'w2']]);
    t.is(seenByCore[0]!.object.message, 'done');
    const seenByV1 = [await v1Watch.next(), await v1Watch.next()];
    t.deepEqual(seenByV1.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name]), [['ADDED', 'events.k8s.io/v1', 'w1'], ['ADDED', 'events.k8s.io/v1', 'w2']]);
    t.is(seenByV1[1]!.object.note, 'a test event');
    await server.request('DELETE', corePath(ns, 'w1'));
    const deleted = await v1Watch.next();
    t.deepEqual([deleted.type, deleted.object.metadata.name, deleted.object.note], ['DELETED', 'w1', 'done']);
  } finally {
    coreWatch.close();
    v1Watch.close();
  }
});

test('a core/v1 Event keeps its eventTime in UTC with six fraction digits', async (t) => {
  const ns = await createNamespace(server, 'ev');
  const res = await server.request('POST', corePath(ns), {
    body: { ...coreEvent(ns, 'micro'), eventTime: '2026-01-01T02:00:00.000001+02:00', reportingComponent: 'example.com/c', reportingInstance: 'c-0', action: 'Act' },
  });
  t.is(res.status, 201, res.text);
  t.is(res.body.eventTime, '2026-01-01T00:00:00.000001Z');
});

test("core/v1: kube's legacy validation (involvedObject namespace, new-style events' reporting fields)", async (t) => {
  const ns = await createNamespace(server, 'ev');
  const mismatch = await server.request('POST', corePath(ns), { body: coreEvent(ns, 'm', { involvedObject: { kind: 'Pod', namespace: 'elsewhere', name: 'p' } }) });
  expectStatus(t, mismatch, { code: 422, reason: 'Invalid', message: 'Event "m" is invalid: involvedObject.namespace: Invalid value: "elsewhere": does not match event.namespace' });
  const newStyle = await server.request('POST', corePath(ns), {
    body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'n' }, involvedObject: { kind: 'Pod', namespace: ns, name: 'p' }, eventTime: '2026-01-01T00:00:00.000000Z', action: 'x'.repeat(129) },
  });
  expectStatus(t, newStyle, {
    code: 422,
    reason: 'Invalid',
    message:
      'Event "n" is invalid: [reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, reportingController: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), reportingInstance: Required value, action: Invalid value: "": can have at most 128 characters, reason: Required value]',
  });
  // A cluster-scoped object's old-style event lives in "default".
  const clusterScoped = await server.request('POST', corePath('default'), { body: coreEvent('default', `node-${ns}`, { involvedObject: { kind: 'Node', name: 'n1' } }) });
  t.is(clusterScoped.status, 201, clusterScoped.text);
  await server.request('DELETE', corePath('default', `node-${ns}`));
});

test("events.k8s.io/v1: kube's strict validation on create and the immutable fields on update", async (t) => {
  const ns = await createNamespace(server, 'ev');
  const bad = await server.request('POST', v1Path(ns), {
    body: newEvent(ns, 'strict', { type: 'Odd', deprecatedCount: 3, deprecatedSource: { component: 'c' }, series: { count: 1 }, note: 'n'.repeat(1025) }),
  });
  expectStatus(t, bad, {
    code: 422,
    reason: 'Invalid',
    message:
      'Event.events.k8s.io "strict" is invalid: [message: Invalid value: "": can have at most 1024 characters, series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value, type: Invalid value: "": has invalid value: Odd, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]',
  });
  t.is((await server.request('GET', corePath(ns, 'strict'))).status, 404);
  const created = await server.request('POST', v1Path(ns), { body: newEvent(ns, 'fixed') });
  t.is(created.status, 201, created.text);
  const changed = await server.request('PUT', v1Path(ns, 'fixed'), { body: { ...created.body, note: 'changed' } });
  expectStatus(t, changed, { code: 422, reason: 'Invalid', message: 'Event.events.k8s.io "fixed" is invalid: message: Invalid value: "changed": field is immutable' });
  // The same change through core/v1 is legacy-validated only: allowed.
  const coreChange = await server.request('PATCH', corePath(ns, 'fixed'), { body: { message: 'changed' }, contentType: 'application/merge-patch+json' });
  t.is(coreChange.status, 200, coreChange.text);
  t.is((await server.request('GET', v1Path(ns, 'fixed'))).body.note, 'changed');
});

test('field selectors: core/v1 names, events.k8s.io/v1 names, and kube\'s 400 for others', async (t) => {
  const ns = await createNamespace(server, 'ev');
  await server.request('POST', corePath(ns), { body: coreEvent(ns, 'a') });
  await server.request('POST', corePath(ns), { body: coreEvent(ns, 'b', { involvedObject: { kind: 'Secret', namespace: ns, name: 'other' }, type: 'Warning', source: {} , reportingComponent: 'rc' }) });
  await server.request('POST', v1Path(ns), { body: newEvent(ns, 'c') });
  const select = async (path: string, selector: string) => names((await server.request('GET', `${path}?fieldSelector=${encodeURIComponent(selector)}`)).body).sort();
  t.deepEqual(await select(corePath(ns), 'involvedObject.name=target'), ['a']);
  t.deepEqual(await select(corePath(ns), 'involvedObject.kind=Secret,type=Warning'), ['b']);
  t.deepEqual(await select(corePath(ns), 'source=tester'), ['a']);
  t.deepEqual(await select(corePath(ns), 'source=rc'), ['b']); // no source.component: the reporting controller
  t.deepEqual(await select(corePath(ns), 'reportingComponent=example.com/controller'), ['c']);
  t.deepEqual(await select(corePath(ns), 'involvedObject.uid=u-1,reason=Tested'), ['a']);
  t.deepEqual(await select(v1Path(ns), 'regarding.name=w1'), ['c']);
  t.deepEqual(await select(v1Path(ns), 'reportingController=example.com/controller'), ['c']);
  t.deepEqual(await select(v1Path(ns), 'regarding.kind!=Widget'), ['a', 'b']);
  const unsupported = await server.request('GET', `${v1Path(ns)}?fieldSelector=involvedObject.name%3Dtarget`);
  expectStatus(t, unsupported, { code: 400, reason: 'BadRequest', message: 'field label not supported: involvedObject.name' });
});

test('wrong types are 400s in either group, nothing stored', async (t) => {
  const ns = await createNamespace(server, 'ev');
  const core = await server.request('POST', corePath(ns), { body: coreEvent(ns, 'typed', { count: 'two' }) });
  t.is(core.status, 400);
  t.true(String(core.body.message).includes('json: cannot unmarshal string into Go struct field Event.count of type int32'), core.body.message);
  const v1 = await server.request('POST', v1Path(ns), { body: newEvent(ns, 'typed', { regarding: 'pod' }) });
  t.is(v1.status, 400);
  t.true(String(v1.body.message).includes('json: cannot unmarshal string into Go struct field Event.regarding of type v1.ObjectReference'), v1.body.message);
  const micro = await server.request('POST', v1Path(ns), { body: newEvent(ns, 'typed', { eventTime: '2026-01-01T00:00:00Z' }) });
  t.is(micro.status, 400);
  t.is((await server.request('GET', corePath(ns, 'typed'))).status, 404);
});

test("the Table has kube's Event columns, the same through both groups", async (t) => {
  const ns = await createNamespace(server, 'ev');
  await server.request('POST', corePath(ns), { body: coreEvent(ns, 'tab') });
  const accept = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
  const core = await server.request('GET', corePath(ns), { headers: accept });
  t.deepEqual(
    core.body.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}:${c.priority}`),
    ['Last Seen:0', 'Type:0', 'Reason:0', 'Object:0', 'Subobject:1', 'Source:1', 'Message:0', 'First Seen:1', 'Count:1', 'Name:1'],
  );
  t.deepEqual(core.body.rows[0].cells.slice(1), ['Normal', 'Tested', 'configmap/target', '', 'tester, node-1', 'a test event', core.body.rows[0].cells[7], 2, 'tab']);
  const v1 = await server.request('GET', v1Path(ns), { headers: accept });
  t.deepEqual(v1.body.rows[0].cells.slice(1, 7), core.body.rows[0].cells.slice(1, 7));
});

/** core/v1 Event's messages with kube's field numbers, enough to see which fields are on the wire. */
const eventProto = `
syntax = "proto2";
package k8s.io.api.core.v1;
message MicroTime { optional int64 seconds = 1; optional int32 nanos = 2; }
message ObjectReference { optional string kind = 1; optional string namespace = 2; optional string name = 3; }
message EventSeries { optional int32 count = 1; optional MicroTime lastObservedTime = 2; }
message Event {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ObjectReference involvedObject = 2;
  optional string message = 4;
  optional int32 count = 8;
  optional MicroTime eventTime = 10;
  optional EventSeries series = 11;
  optional ObjectReference related = 13;
  optional string reportingComponent = 14;
}
`;

test('protobuf: a core/v1 Event has no series or related on the wire unless set (kubectl describe reads series)', async (t) => {
  const ns = await createNamespace(server, 'ev');
  await server.request('POST', corePath(ns), { body: coreEvent(ns, 'pb') });
  await server.request('POST', v1Path(ns), { body: newEvent(ns, 'pb-series', { series: { count: 3, lastObservedTime: '2026-01-01T00:00:02.000003Z' } }) });
  const client = new KubeProtobufClient(eventProto, 'k8s.io.api.core.v1');
  const get = async (name: string) => client.decode((await sendBinary(server, 'GET', corePath(ns, name), { accept: 'application/vnd.kubernetes.protobuf' })).bytes);
  const plain = await get('pb');
  t.is(plain.kind, 'Event');
  t.is(plain.message.message, 'a test event');
  t.is(plain.message.count, 2);
  t.false('series' in plain.message);
  t.false('related' in plain.message);
  const series = await get('pb-series');
  t.deepEqual(series.message.series, { count: 3, lastObservedTime: { seconds: 1767225602, nanos: 3000 } });
  t.is(series.message.reportingComponent, 'example.com/controller');
});

test('an Event deleted in the foreground or orphaning is gone at once: no policy keeps it for the garbage collector', async (t) => {
  const ns = await createNamespace(server, 'ev-gc');
  for (const propagationPolicy of ['Foreground', 'Orphan']) {
    const name = `gc-${propagationPolicy.toLowerCase()}`;
    t.is((await server.request('POST', corePath(ns), { body: coreEvent(ns, name) })).status, 201);
    const res = await server.request('DELETE', `${corePath(ns, name)}?propagationPolicy=${propagationPolicy}`);
    // removed by the DELETE itself (kube's Success Status), not left with a finalizer for the collector to lift
    t.like(res.body, { kind: 'Status', status: 'Success' }, res.text);
    t.is((await server.request('GET', corePath(ns, name))).status, 404, propagationPolicy);
  }
});

test("deleting a namespace deletes its Events, whichever group wrote them", async (t) => {
  const ns = await createNamespace(server, 'ev');
  await server.request('POST', corePath(ns), { body: coreEvent(ns, 'a') });
  await server.request('POST', v1Path(ns), { body: newEvent(ns, 'b') });
  t.is((await server.request('DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
  await server.waitFor(async () => (await server.request('GET', `/api/v1/namespaces/${ns}`)).status === 404, 15_000, `namespace ${ns} to be gone`);
  t.deepEqual(names((await server.request('GET', corePath(ns))).body), []);
});

test('Events expire --event-ttl after their last write, whichever group wrote them', async (t) => {
  const short = await startTestServer({ storage: 'memory', eventTtlMs: 1500 });
  try {
    const ns = await createNamespace(short, 'ttl');
    await short.request('POST', corePath(ns), { body: coreEvent(ns, 'old') });
    await short.request('POST', v1Path(ns), { body: newEvent(ns, 'new') });
    t.is((await short.request('GET', corePath(ns, 'new'))).status, 200);
    await short.waitFor(async () => names((await short.request('GET', corePath(ns))).body).length === 0, 10_000, 'the events to expire');
    t.pass();
  } finally {
    await short.close();
  }
});
