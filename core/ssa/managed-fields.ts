/**
 * metadata.managedFields ⇄ the managers' field sets (fieldmanager internal/managedfields.go).
 * A manager is identified by the JSON of its entry without fields and time, and without apiVersion for appliers:
 * `{"manager":"kubectl","operation":"Apply"}`, `{"manager":"x","operation":"Update","apiVersion":"v1","subresource":"status"}`.
 * So one entry per applier (+subresource), one per updater + apiVersion (+subresource). Entries are written sorted
 * by operation, time (seconds), manager, apiVersion, subresource.
 */
import { goJSONString } from '../../lib/go/go-values.js';
import { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { decodeFieldsV1, encodeFieldsV1 } from './fields-v1.js';
import { goCompare } from '../../lib/go/strings.js';
import { timeSeconds, type ManagedFieldsEntry } from './managed-fields-entry.js';
import type { ManagerSets } from './updater.js';

/** The managers' sets and the time of each manager's last change. */
export interface Managed {
  sets: ManagerSets;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { sets: new Map(), times: new Map() };
}

export interface ManagerInfo {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion?: string;
  subresource?: string;
}

/** BuildManagerIdentifier. */
export function managerIdentifier(m: ManagerInfo): string {
  let s = '{';
  const add = (k: string, v: string | undefined) => {
    if (v) s += (s.length > 1 ? ',' : '') + `"${k}":` + goJSONString(v);
  };
  add('manager', m.manager);
  add('operation', m.operation);
  if (m.operation !== 'Apply') add('apiVersion', m.apiVersion);
  add('subresource', m.subresource);
  return s + '}';
}

export class ManagedFieldsError extends Error {}

/**
 * DecodeManagedFields; throws ManagedFieldsError with kube's texts. `stored`: the entries of a stored object, whose
 * fieldsV1 are written back as they are while unchanged (fields-v1.ts).
 */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[], stored: boolean): Managed {
  const managed = emptyManaged();
  entries.forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (e.fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsError(e.fieldsType ? `invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}` : `missing fieldsType in managed fields entry ${i}`);
    }
    const id = managerIdentifier({ manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource });
    let set: FieldSet;
    try {
      set = decodeFieldsV1(e.fieldsV1 ?? {}, stored);
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set for ${e.manager}: error decoding set: ${(err as Error).message}`);
    }
    managed.sets.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, e.time);
  });
  return managed;
}

/** The entries to store (undefined when there are none), sorted as kube sorts them. */
export function encodeManagedFields(managed: Managed): Record<string, unknown>[] | undefined {
  if (managed.sets.size === 0) return undefined;
  const entries: { sort: [string, number, string, string, string]; entry: Record<string, unknown> }[] = [];
  for (const [id, vs] of managed.sets) {
    const info = JSON.parse(id) as Partial<ManagerInfo>;
    const operation = vs.applied ? 'Apply' : (info.operation ?? '');
    const time = managed.times.get(id);
    const entry: Record<string, unknown> = {};
    if (info.manager) entry.manager = info.manager;
    if (operation) entry.operation = operation;
    if (vs.apiVersion) entry.apiVersion = vs.apiVersion;
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = encodeFieldsV1(vs.set);
    if (info.subresource) entry.subresource = info.subresource;
    entries.push({ sort: [operation, timeSeconds(time), info.manager ?? '', vs.apiVersion, info.subresource ?? ''], entry });
  }
  entries.sort(({ sort: p }, { sort: q }) => goCompare(p[0], q[0]) || p[1] - q[1] || goCompare(p[2], q[2]) || goCompare(p[3], q[3]) || goCompare(p[4], q[4]));
  return entries.map((e) => e.entry);
}
