import test from 'ava';
import { capUpdateManagers } from '../../../../core/ssa/cap-managers.js';
import { FieldSet } from '../../../../schemas/structured-merge/field-set.js';
import { isResetManagedFields, readManagedFields } from '../../../../core/ssa/managed-fields-entry.js';
import { decodeManagedFields, encodeManagedFields, managerIdentifier, type Managed } from '../../../../core/ssa/managed-fields.js';

test('manager identifiers: the entry without fields and time, and without apiVersion for appliers', (t) => {
  t.is(managerIdentifier({ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1' }), '{"manager":"kubectl","operation":"Apply"}');
  t.is(managerIdentifier({ manager: 'x<y', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' }), '{"manager":"x\\u003cy","operation":"Update","apiVersion":"apps/v1","subresource":"status"}');
});

test('entries are read as kube converts them: times normalized to UTC seconds; one bad entry voids the list', (t) => {
  const entry = (o: Record<string, unknown>) => ({ metadata: { managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', ...o }] } }).metadata;
  t.is(readManagedFields(entry({ time: '2019-03-30T16:00:00.000Z' }))?.[0].time, '2019-03-30T16:00:00Z');
  t.is(readManagedFields(entry({ time: '2019-03-30T18:30:00+02:30' }))?.[0].time, '2019-03-30T16:00:00Z');
  t.is(readManagedFields(entry({ time: null }))?.[0].time, undefined);
  t.is(readManagedFields(entry({ time: '2019-02-30T00:00:00Z' })), undefined);
  t.is(readManagedFields(entry({ time: 'yesterday' })), undefined);
  t.is(readManagedFields(entry({ manager: 7 })), undefined);
  t.is(readManagedFields({ managedFields: [1] }), undefined);
  t.is(readManagedFields({ managedFields: null }), undefined);
  t.is(readManagedFields({}), undefined);
});

test('[] and [{}] reset managedFields; anything else does not', (t) => {
  t.true(isResetManagedFields(readManagedFields({ managedFields: [] })));
  t.true(isResetManagedFields(readManagedFields({ managedFields: [{}] })));
  t.true(isResetManagedFields(readManagedFields({ managedFields: [{ manager: '', time: null, fieldsV1: null }] })));
  t.false(isResetManagedFields(readManagedFields({ managedFields: [{ fieldsV1: {} }] })));
  t.false(isResetManagedFields(readManagedFields({ managedFields: [{}, {}] })));
  t.false(isResetManagedFields(undefined));
});

test('decoding errors carry kube’s texts', (t) => {
  const base = { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', subresource: '' };
  t.throws(() => decodeManagedFields([{ ...base, operation: 'Patch' }], false), { message: 'operation must be `Apply` or `Update`' });
  t.throws(() => decodeManagedFields([{ ...base, apiVersion: '' }], false), { message: 'apiVersion must not be empty' });
  t.throws(() => decodeManagedFields([{ ...base, fieldsType: '' }], false), { message: 'missing fieldsType in managed fields entry 0' });
  t.throws(() => decodeManagedFields([base, { ...base, fieldsType: 'FieldsV2' }], false), { message: 'invalid fieldsType "FieldsV2" in managed fields entry 1' });
});

test('encoding sorts by operation, time in seconds, manager, apiVersion, subresource', (t) => {
  const set = FieldSet.of(['f:spec', 'f:x']);
  const managed: Managed = { sets: new Map(), times: new Map() };
  const add = (manager: string, operation: 'Apply' | 'Update', apiVersion: string, time?: string, subresource?: string) => {
    const id = managerIdentifier({ manager, operation, apiVersion, subresource });
    managed.sets.set(id, { set, apiVersion, applied: operation === 'Apply' });
    managed.times.set(id, time);
  };
  add('b', 'Update', 'v1', '2026-01-01T00:00:02Z');
  add('a', 'Update', 'v2', '2026-01-01T00:00:02Z');
  add('a', 'Update', 'v1', '2026-01-01T00:00:02Z', 'status');
  add('a', 'Update', 'v1', '2026-01-01T00:00:02Z');
  add('z', 'Update', 'v1');
  add('y', 'Apply', 'v1', '2026-01-01T00:00:09Z');
  const order = encodeManagedFields(managed)!.map((e) => [e.manager, e.operation, e.apiVersion, e.subresource ?? ''].join(' '));
  t.deepEqual(order, ['y Apply v1 ', 'z Update v1 ', 'a Update v1 ', 'a Update v1 status', 'a Update v2 ', 'b Update v1 ']);
  t.is(encodeManagedFields({ sets: new Map(), times: new Map() }), undefined);
});

test('capping: per version, the first old updater seeds ancient-changes with the next one', (t) => {
  const managed: Managed = { sets: new Map(), times: new Map() };
  for (let i = 0; i < 12; i++) {
    const apiVersion = i % 2 ? 'v2' : 'v1';
    const id = managerIdentifier({ manager: `m${i}`, operation: 'Update', apiVersion });
    managed.sets.set(id, { set: FieldSet.of(['f:data', `f:k${i}`]), apiVersion, applied: false });
    managed.times.set(id, `2026-01-01T00:00:${String(10 + i)}Z`);
  }
  capUpdateManagers(managed);
  const names = [...managed.sets.keys()].map((id) => JSON.parse(id)).map((e) => `${e.manager}@${e.apiVersion}`);
  // m0 (v1) and m1 (v2) only mark their versions; m2 joins m0 in v1's bucket, m3 joins m1 in v2's: 12 → 10.
  t.deepEqual(names.sort(), ['ancient-changes@v1', 'ancient-changes@v2', 'm10@v1', 'm11@v2', 'm4@v1', 'm5@v2', 'm6@v1', 'm7@v2', 'm8@v1', 'm9@v2']);
  const bucket = managerIdentifier({ manager: 'ancient-changes', operation: 'Update', apiVersion: 'v1' });
  t.deepEqual(managed.sets.get(bucket)!.set.paths().map((p) => p.join('.')), ['f:data.f:k0', 'f:data.f:k2']);
  t.is(managed.times.get(bucket), '2026-01-01T00:00:12Z');
});
