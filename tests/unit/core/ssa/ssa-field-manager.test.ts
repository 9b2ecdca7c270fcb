/**
 * The field manager as kube-apiserver's (fieldmanager package): managedFields entries, identifiers, times, resets,
 * conflicts as the 409 kubectl prints, errors, and the spec's examples.
 */
import test from 'ava';
import type { MergeModel } from '../../../../schemas/merge-strategy.js';
import { ApiError } from '../../../../core/contracts/api-error.js';
import type { KubeObject } from '../../../../core/contracts/resource-type.js';
import { recordUpdate, serverSideApply, type FieldManagerContext } from '../../../../core/ssa/field-manager.js';
import { keepTimesOfNoopWrite } from '../../../../core/ssa/noop-timestamps.js';

const scalar: MergeModel = { kind: 'scalar' };
const stringMap: MergeModel = { kind: 'map', atomic: false, values: scalar };
const widgetModel: MergeModel = {
  kind: 'struct',
  atomic: false,
  fields: {
    spec: {
      kind: 'struct',
      atomic: false,
      fields: {
        color: scalar,
        replicas: scalar,
        ports: { kind: 'list', listType: 'map', keys: ['name'], items: { kind: 'struct', atomic: false, fields: { name: scalar, port: scalar } } },
      },
    },
    status: { kind: 'struct', atomic: false, fields: { phase: scalar, replicas: scalar } },
    data: stringMap,
  },
};

let clock = 0;
function ctx(manager: string, extra: Partial<FieldManagerContext> = {}): FieldManagerContext {
  const now = new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString().slice(0, 19) + 'Z';
  return { model: widgetModel, manager, apiVersion: 'example.com/v1', kind: 'Widget', subresource: '', now, resetFields: ['status'], ...extra };
}

const widget = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'default', ...metadata },
  spec,
});

/** As the store does: a created object gets a uid. */
const stored = (o: KubeObject): KubeObject => ({ ...o, metadata: { uid: 'uid-1', ...o.metadata } });
const apply = (live: KubeObject | undefined, cfg: KubeObject, manager: string, force = false, extra: Partial<FieldManagerContext> = {}) =>
  stored(serverSideApply(live, cfg, ctx(manager, extra), force));
const update = (live: KubeObject | undefined, next: KubeObject, manager: string, extra: Partial<FieldManagerContext> = {}) =>
  stored(recordUpdate(live, structuredClone(next), ctx(manager, extra)));
const entries = (o: KubeObject) => (o.metadata?.managedFields ?? []) as Record<string, any>[];
const summary = (o: KubeObject) => entries(o).map((e) => [e.manager, e.operation, e.apiVersion, e.subresource ?? ''].join(' '));
const fields = (o: KubeObject, manager: string) => JSON.stringify(entries(o).find((e) => e.manager === manager)?.fieldsV1);

function conflict(t: any, fn: () => unknown): ApiError {
  const e = t.throws(fn, { instanceOf: ApiError }) as ApiError;
  t.is(e.code, 409);
  t.is(e.reason, 'Conflict');
  return e;
}

test('an entry is written as kube writes it: field order, RFC 3339 time, FieldsV1', (t) => {
  const c = ctx('kubectl');
  const out = serverSideApply(undefined, widget({ color: 'red' }), c, false);
  t.deepEqual(out.metadata?.managedFields, [
    { manager: 'kubectl', operation: 'Apply', apiVersion: 'example.com/v1', time: c.now, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:color': {} } } },
  ]);
  t.deepEqual(Object.keys((out.metadata!.managedFields as any)[0]), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  t.deepEqual(out.spec, { color: 'red' });
});

test('the 409 of one conflict with an updater: message, reason and cause as kubectl prints them', (t) => {
  const o1 = apply(undefined, widget({ color: 'red' }), 'kubectl');
  const o2 = update(o1, widget({ color: 'blue' }), 'kubectl-edit');
  const e = conflict(t, () => serverSideApply(o2, widget({ color: 'green' }), ctx('kubectl'), false));
  t.is(e.message, 'Apply failed with 1 conflict: conflict with "kubectl-edit" using example.com/v1: .spec.color');
  t.deepEqual(e.status.details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using example.com/v1', field: '.spec.color' }] });
});

test('several conflicts with several managers; appliers print without version, subresources are named', (t) => {
  let o = apply(undefined, widget({ color: 'red', replicas: 1 }), 'alice');
  o = apply(o, widget({ replicas: 1, ports: [{ name: 'http', port: 80 }] }), 'bob');
  const e = conflict(t, () => serverSideApply(o, widget({ color: 'blue', replicas: 2, ports: [{ name: 'http', port: 81 }] }), ctx('carol'), false));
  t.is(
    e.message,
    'Apply failed with 4 conflicts: conflicts with "alice":\n- .spec.color\n- .spec.replicas\nconflicts with "bob":\n- .spec.replicas\n- .spec.ports[name="http"].port',
  );
  t.deepEqual(
    e.status.details?.causes?.map((c) => `${c.reason} ${c.message} ${c.field}`),
    [
      'FieldManagerConflict conflict with "alice" .spec.color',
      'FieldManagerConflict conflict with "alice" .spec.replicas',
      'FieldManagerConflict conflict with "bob" .spec.replicas',
      'FieldManagerConflict conflict with "bob" .spec.ports[name="http"].port',
    ],
  );
  const status = { subresource: 'status' as const, resetFields: ['spec'] };
  o = update(o, { ...o, data: { k: 'v' } } as KubeObject, 'ctrl', status);
  const withData = { ...widget({}), data: { k: 'x' } } as KubeObject;
  const e2 = conflict(t, () => serverSideApply(o, withData, ctx('carol'), false));
  t.is(e2.message, 'Apply failed with 1 conflict: conflict with "ctrl" with subresource "status" using example.com/v1: .data.k');
  o = apply(o, withData, 'carol', true);
  t.is(fields(o, 'ctrl'), '{"f:data":{}}', 'force took the key; the map it created stays its');
});

test('force transfers ownership; a manager left with nothing loses its entry', (t) => {
  const o1 = apply(undefined, widget({ color: 'red' }), 'one');
  const o2 = apply(o1, widget({ color: 'blue' }), 'two', true);
  t.deepEqual(summary(o2), ['two Apply example.com/v1 ']);
  t.deepEqual(o2.spec, { color: 'blue' });
});

test('equal values are shared; a shared field stays when one manager stops applying it (ownership transfer)', (t) => {
  let o = apply(undefined, widget({ color: 'red', replicas: 3 }), 'user');
  o = apply(o, widget({ replicas: 3 }), 'handover-to-hpa');
  t.is(fields(o, 'handover-to-hpa'), '{"f:spec":{"f:replicas":{}}}');
  t.is(fields(o, 'user'), '{"f:spec":{"f:color":{},"f:replicas":{}}}');
  o = apply(o, widget({ color: 'red' }), 'user');
  t.deepEqual(o.spec, { color: 'red', replicas: 3 }, 'kept: the handover manager owns it');
  // The HPA writes replicas: the temporary manager owns nothing any more and its entry goes.
  o = update(o, { ...o, spec: { ...(o.spec as object), replicas: 5 } } as KubeObject, 'hpa');
  t.deepEqual(summary(o), ['user Apply example.com/v1 ', 'hpa Update example.com/v1 ']);
  t.is(fields(o, 'hpa'), '{"f:spec":{"f:replicas":{}}}');
  // Had the user dropped replicas while owning it alone, it would have been removed (the caller then defaults it).
  const alone = apply(apply(undefined, widget({ color: 'red', replicas: 3 }), 'user'), widget({ color: 'red' }), 'user');
  t.deepEqual(alone.spec, { color: 'red' });
});

test('a controller owning .status through /status: appliers of the main resource neither own nor conflict on it', (t) => {
  let o = apply(undefined, widget({ color: 'red' }), 'user');
  o = update(o, { ...o, status: { phase: 'Ready' } } as KubeObject, 'controller', { subresource: 'status', resetFields: ['spec'] });
  t.deepEqual(summary(o), ['user Apply example.com/v1 ', 'controller Update example.com/v1 status']);
  t.is(fields(o, 'controller'), '{"f:status":{".":{},"f:phase":{}}}');
  const o2 = apply(o, { ...widget({ color: 'red' }), status: { phase: 'Other' } } as KubeObject, 'user');
  t.is(fields(o2, 'user'), '{"f:spec":{"f:color":{}}}', 'status (reset by the main resource) is not owned');
  t.is(fields(o2, 'controller'), '{"f:status":{".":{},"f:phase":{}}}');
});

test('applier time changes only when the object changes; an updater entry merges its updates', (t) => {
  const o1 = apply(undefined, widget({ color: 'red' }), 'user');
  const t1 = entries(o1)[0].time;
  const o2 = apply(o1, widget({ color: 'red' }), 'user');
  t.is(entries(o2)[0].time, t1, 'no-op apply');
  t.deepEqual(o2.spec, o1.spec);
  const o3 = update(o2, { ...o2, spec: { color: 'red', replicas: 1 } } as KubeObject, 'ctl');
  const o4 = update(o3, { ...o3, spec: { color: 'red', replicas: 1, ports: [{ name: 'a', port: 1 }] } } as KubeObject, 'ctl');
  t.is(fields(o4, 'ctl'), '{"f:spec":{"f:ports":{".":{},"k:{\\"name\\":\\"a\\"}":{".":{},"f:name":{},"f:port":{}}},"f:replicas":{}}}');
  const o5 = update(o4, o4, 'ctl');
  t.is(entries(o5).find((e) => e.manager === 'ctl')!.time, entries(o4).find((e) => e.manager === 'ctl')!.time, 'unchanged object: time kept');
  // Another apiVersion is another updater entry; an applier has one entry whatever its version.
  const o6 = update(o5, { ...o5, spec: { ...(o5.spec as object), replicas: 2 } } as KubeObject, 'ctl', { apiVersion: 'example.com/v2' });
  t.deepEqual(summary(o6).filter((s) => s.startsWith('ctl')), ['ctl Update example.com/v1 ', 'ctl Update example.com/v2 ']);
  const o7 = apply(o6, { ...widget({ color: 'blue' }), apiVersion: 'example.com/v2' }, 'user', false, { apiVersion: 'example.com/v2' });
  t.deepEqual(summary(o7).filter((s) => s.startsWith('user')), ['user Apply example.com/v2 ']);
});

test('entries are sorted: Apply before Update, then time, then manager', (t) => {
  let o = update(undefined, widget({ color: 'a' }), 'zeta');
  o = update(o, { ...o, spec: { color: 'a', replicas: 1 } } as KubeObject, 'alpha');
  o = apply(o, widget({ ports: [{ name: 'x' }] }), 'applier');
  t.deepEqual(summary(o), ['applier Apply example.com/v1 ', 'zeta Update example.com/v1 ', 'alpha Update example.com/v1 ']);
  const now = ctx('x').now;
  const o2 = recordUpdate(undefined, widget({ color: 'a' }), { ...ctx('b'), now });
  const o3 = recordUpdate(stored(o2), { ...stored(o2), spec: { color: 'a', replicas: 2 } }, { ...ctx('a'), now });
  t.deepEqual(summary(o3), ['a Update example.com/v1 ', 'b Update example.com/v1 '], 'same second: by manager');
});

test('no manager name is "unknown"', (t) => {
  t.deepEqual(summary(update(undefined, widget({ color: 'a' }), '')), ['unknown Update example.com/v1 ']);
});

test('at most 10 updaters: the oldest are merged into ancient-changes', (t) => {
  let o = update(undefined, widget({}), 'm0');
  for (let i = 1; i <= 11; i++) o = update(o, { ...o, data: { ...((o.data as object) ?? {}), [`k${i}`]: 'v' } } as KubeObject, `m${i}`);
  const names = entries(o).map((e) => e.manager);
  t.is(names.filter((n) => n !== 'ancient-changes').length, 9);
  t.true(names.includes('ancient-changes'));
  t.is(entries(o).length, 10);
  t.is(fields(o, 'ancient-changes'), '{"f:data":{".":{},"f:k1":{},"f:k2":{}},"f:spec":{}}', 'm0, m1 and m2 merged');
});

test('managedFields in the body: absent keeps the live ones; [] and [{}] reset and the write is not tracked', (t) => {
  const o1 = apply(undefined, widget({ color: 'red' }), 'user');
  const { managedFields: _, ...meta } = o1.metadata!;
  const o2 = update(o1, { ...o1, metadata: meta, spec: { color: 'red', replicas: 1 } } as KubeObject, 'ctl');
  t.deepEqual(summary(o2), ['user Apply example.com/v1 ', 'ctl Update example.com/v1 ']);
  for (const reset of [[], [{}]]) {
    const o3 = update(o2, { ...o2, metadata: { ...o2.metadata, managedFields: reset }, spec: { color: 'blue' } } as KubeObject, 'ctl');
    t.is(o3.metadata?.managedFields, undefined, JSON.stringify(reset));
    const o4 = update(o3, { ...o3, spec: { color: 'green' } } as KubeObject, 'other');
    t.is(o4.metadata?.managedFields, undefined, 'an object without managedFields stays untracked');
  }
});

test('managedFields in the body: the client’s are taken when decodable, else the live ones; subresources ignore them', (t) => {
  const o1 = apply(undefined, widget({ color: 'red' }), 'user');
  const mine = [{ manager: 'me', operation: 'Update', apiVersion: 'example.com/v1', time: '2020-01-01T00:00:00.000Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:color': {} } } }];
  const o2 = update(o1, { ...o1, metadata: { ...o1.metadata, managedFields: mine } } as KubeObject, 'ctl');
  t.deepEqual(entries(o2), [{ ...mine[0], time: '2020-01-01T00:00:00Z' }], 'time written back in seconds');
  const bad = [{ manager: 'me', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1' }];
  const o3 = update(o1, { ...o1, metadata: { ...o1.metadata, managedFields: bad } } as KubeObject, 'ctl');
  t.deepEqual(summary(o3), ['user Apply example.com/v1 ']);
  const o4 = update(o1, { ...o1, metadata: { ...o1.metadata, managedFields: mine }, status: { phase: 'x' } } as KubeObject, 'ctl', { subresource: 'status', resetFields: ['spec'] });
  t.deepEqual(summary(o4), ['user Apply example.com/v1 ', 'ctl Update example.com/v1 status']);
});

test('the first apply to an object without managedFields attributes its fields to before-first-apply', (t) => {
  const untracked = { ...widget({ color: 'red', replicas: 1 }), metadata: { name: 'w1', namespace: 'default', uid: 'u' } };
  const o = apply(untracked, widget({ color: 'blue' }), 'user', true);
  t.deepEqual(summary(o), ['user Apply example.com/v1 ', 'before-first-apply Update example.com/v1 ']);
  t.is(fields(o, 'before-first-apply'), '{"f:spec":{".":{},"f:replicas":{}}}');
  t.throws(() => serverSideApply(untracked, widget({ color: 'blue' }), ctx('user'), false), { message: /conflict with "before-first-apply" using example.com\/v1: \.spec\.color/ });
});

test("the spec's ConfigMap examples", (t) => {
  const cm = (data: Record<string, string>, labels?: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'test-cm', namespace: 'default', ...(labels ? { labels } : {}) },
    data,
  });
  const c = (manager: string) => ({ ...ctx(manager), apiVersion: 'v1', kind: 'ConfigMap', resetFields: [] });
  const o1 = stored(serverSideApply(undefined, cm({ key: 'some value' }, { 'test-label': 'test' }), c('kubectl'), false));
  t.is(fields(o1, 'kubectl'), '{"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:test-label":{}}}}');
  const o2 = stored(recordUpdate(o1, { ...structuredClone(o1), data: { key: 'new value' } }, c('kube-controller-manager')));
  t.is(fields(o2, 'kubectl'), '{"f:metadata":{"f:labels":{"f:test-label":{}}}}');
  t.is(fields(o2, 'kube-controller-manager'), '{"f:data":{"f:key":{}}}');
  // A no-change apply of apiVersion and kind alone.
  const o3 = serverSideApply(o2, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test-cm' } }, c('other'), false);
  t.deepEqual(o3.data, o2.data);
  t.deepEqual(o3.metadata?.labels, o2.metadata?.labels, 'labels owned by kubectl stay');
});

test('client-side apply migration: kubectl takes over fields the last-applied annotation describes', (t) => {
  const lastApplied = JSON.stringify(widget({ color: 'red', replicas: 1 })) + '\n';
  let o = update(undefined, widget({ color: 'red', replicas: 1 }, { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } }), 'kubectl-client-side-apply');
  o = apply(o, widget({ color: 'blue', replicas: 1 }), 'kubectl');
  t.deepEqual(o.spec, { color: 'blue', replicas: 1 });
  t.is(fields(o, 'kubectl'), '{"f:spec":{"f:color":{},"f:replicas":{}}}');
  const annotation = (o.metadata?.annotations as Record<string, string>)['kubectl.kubernetes.io/last-applied-configuration'];
  t.is(annotation, '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default"},"spec":{"color":"blue","replicas":1}}\n');
  // A field another manager changed since is not in the annotation's state: it still conflicts.
  o = update(o, { ...o, spec: { color: 'blue', replicas: 7 } } as KubeObject, 'kubectl-scale');
  t.throws(() => serverSideApply(o, widget({ color: 'blue', replicas: 2 }), ctx('kubectl'), false), { message: /conflict with "kubectl-scale" using example.com\/v1: \.spec\.replicas/ });
  // Other managers get no such migration.
  const p = update(undefined, widget({ color: 'red' }, { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } }), 'kubectl-client-side-apply');
  t.throws(() => serverSideApply(p, widget({ color: 'blue' }), ctx('my-manager'), false), { message: /Apply failed with 1 conflict/ });
});

test('invalid applies are 400s (kube answers a bare 500 for configurations that do not fit the schema; kapi a 400 with its text)', (t) => {
  const e1 = t.throws(() => serverSideApply(undefined, { ...widget({}), kind: 'Gadget' }, ctx('m'), false), { instanceOf: ApiError }) as ApiError;
  t.is(e1.code, 400);
  t.is(e1.message, 'invalid object type: example.com/v1, Kind=Gadget');
  const e2 = t.throws(() => serverSideApply(undefined, widget({}, { managedFields: [] }), ctx('m'), false), { instanceOf: ApiError }) as ApiError;
  t.is(e2.message, 'metadata.managedFields must be nil');
  const e3 = t.throws(() => serverSideApply(undefined, widget({ ports: [{ name: 'a' }, { name: 'a' }], size: 1 }), ctx('m'), false), { instanceOf: ApiError }) as ApiError;
  t.is(e3.code, 400);
  t.is(e3.status.reason, 'BadRequest');
  t.is(
    e3.message,
    'failed to create typed patch object (default/w1; example.com/v1, Kind=Widget): errors:\n  .spec.ports: duplicate entries for key [name="a"]\n  .spec.size: field not declared in schema',
  );
  const e4 = t.throws(() => serverSideApply(undefined, widget({ ports: [{ port: 1 }] }), ctx('m'), false), { instanceOf: ApiError }) as ApiError;
  t.is(
    e4.message,
    'failed to create typed patch object (default/w1; example.com/v1, Kind=Widget): .spec.ports: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
  );
  const broken = { ...widget({}), metadata: { name: 'w1', managedFields: [{ manager: 'x', operation: 'Nope', apiVersion: 'v1', fieldsType: 'FieldsV1' }] } };
  const e5 = t.throws(() => serverSideApply(broken, widget({}), ctx('m'), false), { instanceOf: ApiError }) as ApiError;
  t.is(e5.code, 500); // stored data a client cannot have written (bad managedFields in a body are replaced)
  t.is(e5.message, 'Internal error occurred: failed to decode managed fields: operation must be `Apply` or `Update`');
});

test('an update whose object cannot be typed drops managedFields instead of failing', (t) => {
  const o1 = apply(undefined, widget({ color: 'red' }), 'user');
  const o2 = update(o1, { ...o1, spec: { ports: [{ port: 1 }] } } as KubeObject, 'ctl');
  t.is(o2.metadata?.managedFields, undefined);
});

test('inputs are not modified', (t) => {
  const live = apply(undefined, widget({ color: 'red', ports: [{ name: 'a', port: 1 }] }), 'user');
  const cfg = widget({ color: 'blue', ports: [{ name: 'b', port: 2 }] });
  const [liveCopy, cfgCopy] = [structuredClone(live), structuredClone(cfg)];
  serverSideApply(live, cfg, ctx('other'), true);
  t.deepEqual(live, liveCopy);
  t.deepEqual(cfg, cfgCopy);
});

test("the spec's topology change: spec.data from atomic to granular frees its keys", (t) => {
  const fooModel = (atomic: boolean): MergeModel => ({
    kind: 'struct',
    atomic: false,
    fields: { spec: { kind: 'struct', atomic: false, fields: { data: { kind: 'map', atomic, values: scalar } } } },
  });
  const c = (manager: string, atomic: boolean) => ({ ...ctx(manager), model: fooModel(atomic), kind: 'Foo', resetFields: [] });
  const foo = (data: Record<string, string>): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'foo-sample' }, spec: { data } });
  const o1 = stored(serverSideApply(undefined, foo({ key1: 'val1', key2: 'val2' }), c('manager-one', true), false));
  t.is(fields(o1, 'manager-one'), '{"f:spec":{"f:data":{}}}');
  t.throws(() => serverSideApply(o1, foo({ key1: 'other' }), c('manager-two', true), false), { message: /conflict with "manager-one": \.spec\.data/ });
  const o2 = serverSideApply(o1, foo({ key1: 'other' }), c('manager-two', false), false);
  t.deepEqual(o2.spec, { data: { key1: 'other', key2: 'val2' } });
  t.is(fields(o2, 'manager-one'), '{"f:spec":{"f:data":{}}}', 'manager-one keeps the map itself');
});

test('a scale write records the replicas it changed, as kube maps /scale back to the custom resource', (t) => {
  const o1 = apply(undefined, widget({ color: 'red', replicas: 1 }), 'user');
  const o2 = update(o1, { ...o1, spec: { ...(o1.spec as object), replicas: 4 } } as KubeObject, 'kubectl', { subresource: 'scale', resetFields: [] });
  t.deepEqual(summary(o2), ['user Apply example.com/v1 ', 'kubectl Update example.com/v1 scale']);
  t.is(fields(o2, 'kubectl'), '{"f:spec":{"f:replicas":{}}}');
  t.is(fields(o2, 'user'), '{"f:spec":{"f:color":{}}}');
});

test('a write that only moves managedFields times keeps the stored times (no-op for storage)', (t) => {
  const o1 = apply(undefined, widget({ color: 'red' }), 'user');
  const o2 = update(o1, { ...o1, spec: { color: 'red', replicas: 1 } } as KubeObject, 'ctl');
  // The strategy reverted the change (e.g. a /status write of spec): only the ctl entry's time moved.
  const reverted = { ...o2, spec: o1.spec, metadata: { ...o2.metadata, managedFields: entries(o1).map((e) => ({ ...e, time: '2030-01-01T00:00:00Z' })) } } as KubeObject;
  t.deepEqual(entries(keepTimesOfNoopWrite(structuredClone(reverted), o1)), entries(o1));
  const changed = { ...reverted, spec: { color: 'green' } } as KubeObject;
  t.is(entries(keepTimesOfNoopWrite(structuredClone(changed), o1))[0].time, '2030-01-01T00:00:00Z');
  t.is(entries(keepTimesOfNoopWrite(structuredClone(o2), o1)).length, 2, 'an added entry is a change');
});

test('an unchanged object serializes as stored: managedFields keep their place in metadata', (t) => {
  const first = serverSideApply(undefined, widget({ color: 'red' }), ctx('user'), false);
  // As stored: the store added its fields after managedFields.
  const live = { ...first, metadata: { ...first.metadata, uid: 'u', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' } } as KubeObject;
  t.is(JSON.stringify(serverSideApply(live, widget({ color: 'red' }), ctx('user'), false)), JSON.stringify(live), 'no-op apply');
  const { managedFields: _, ...withoutManaged } = live.metadata!;
  const put = recordUpdate(live, { ...structuredClone(live), metadata: { ...withoutManaged } }, ctx('editor'));
  t.is(JSON.stringify(put), JSON.stringify(live), 'no-op PUT without managedFields');
});
