/**
 * structured-merge-diff's merge.Updater: how an apply or an update changes the managers' field sets.
 * - update (any write): the comparison of the old and new object takes changed fields away from every other
 *   manager (a conflict unless forced) and removed fields away from all;
 * - Update: the writer owns what it added or modified;
 * - Apply: the configuration is merged into the live object, the applier owns exactly its configuration's fields,
 *   and what it stopped applying is pruned unless someone else owns it.
 * Reset fields (`ignored`) are neither owned nor compared.
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { compareObjects, type Comparison } from './compare.js';
import { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { mergeObjects } from '../../schemas/structured-merge/merge-values.js';
import { prune } from './prune.js';
import { reconcileWithSchema } from './reconcile-schema.js';
import { valuesEqual, type JsonObject } from '../../schemas/structured-merge/json-value.js';

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Field sets by manager identifier (see managed-fields.ts). */
export type ManagerSets = Map<string, VersionedSet>;

/** Another version managers' fields may be in: its model, and objects converted into it. */
export interface VersionView {
  model: MergeModel;
  convert(obj: JsonObject): JsonObject;
}

export interface UpdaterContext {
  model: MergeModel;
  apiVersion: string;
  /** Reset fields: excluded with everything under them. */
  ignored: FieldSet;
  /** The view of another apiVersion, when objects convert into it; else its managers are compared in this version. */
  otherVersion?: (apiVersion: string) => VersionView | undefined;
}

/** Fields another manager owns that the write changes, by manager identifier. */
export class Conflicts extends Error {
  constructor(readonly byManager: Map<string, FieldSet>) {
    super('conflicts');
  }
}

export interface ApplyResult {
  /** The merged object; the live object itself (or an equal value) when the apply changes nothing. */
  object: JsonObject;
  changed: boolean;
  managers: ManagerSets;
}

export function applyConfig(live: JsonObject, config: JsonObject, configSet: FieldSet, ctx: UpdaterContext, managers: ManagerSets, manager: string, force: boolean): ApplyResult {
  managers = reconcile(managers, ctx.model);
  let merged = mergeObjects(live, config, ctx.model);
  const last = managers.get(manager)?.set;
  const set = configSet.recursiveDifference(ctx.ignored);
  managers.set(manager, { set, apiVersion: ctx.apiVersion, applied: true });
  merged = prune(merged, ctx.model, last, set, () => union(managers));
  const { managers: after } = compareAndResolve(live, merged, ctx, managers, manager, force);
  return { object: merged, changed: merged !== live && !valuesEqual(live, merged), managers: after };
}

export function updateObject(live: JsonObject, updated: JsonObject, ctx: UpdaterContext, managers: ManagerSets, manager: string): ManagerSets {
  const { managers: after, compare } = compareAndResolve(live, updated, ctx, reconcile(managers, ctx.model), manager, true);
  const own = (after.get(manager)?.set ?? FieldSet.EMPTY)
    .union(compare.modified)
    .union(compare.added)
    .difference(compare.removed)
    .recursiveDifference(ctx.ignored);
  if (own.isEmpty()) after.delete(manager);
  else after.set(manager, { set: own, apiVersion: ctx.apiVersion, applied: false });
  return after;
}

/**
 * SMD Updater.update: conflicts (thrown unless forced) and the removal of changed and removed fields. Each manager's
 * fields are compared in its own version: the objects are converted into it when it is another one.
 */
function compareAndResolve(old: JsonObject, updated: JsonObject, ctx: UpdaterContext, managers: ManagerSets, workflow: string, force: boolean) {
  const compare = exclude(compareObjects(old, updated, ctx.model), ctx.ignored);
  const byVersion = new Map<string, Changes>();
  const changesIn = (apiVersion: string): Changes => {
    let changes = byVersion.get(apiVersion);
    if (!changes) {
      const view = apiVersion === ctx.apiVersion ? undefined : ctx.otherVersion?.(apiVersion);
      const c = view ? exclude(compareObjects(view.convert(old), view.convert(updated), view.model), ctx.ignored) : compare;
      changes = { changed: c.modified.union(c.added), removed: c.removed };
      byVersion.set(apiVersion, changes);
    }
    return changes;
  };
  const conflicts = new Map<string, FieldSet>();
  const after: ManagerSets = new Map();
  for (const [m, vs] of managers) {
    let set = vs.set;
    if (m !== workflow) {
      const { changed, removed } = changesIn(vs.apiVersion);
      const taken = changed.isEmpty() ? changed : set.intersection(changed);
      if (!taken.isEmpty()) {
        conflicts.set(m, taken);
        set = set.difference(taken);
      }
      if (!removed.isEmpty()) set = set.difference(removed);
    }
    if (!set.isEmpty()) after.set(m, set === vs.set ? vs : { ...vs, set });
  }
  if (!force && conflicts.size) throw new Conflicts(conflicts);
  return { managers: after, compare };
}

/** What a write changed (added or modified) and removed, in one version. */
interface Changes {
  changed: FieldSet;
  removed: FieldSet;
}

function exclude(c: Comparison, ignored: FieldSet): Comparison {
  if (ignored.isEmpty()) return c;
  return { added: c.added.recursiveDifference(ignored), modified: c.modified.recursiveDifference(ignored), removed: c.removed.recursiveDifference(ignored) };
}

function reconcile(managers: ManagerSets, model: MergeModel): ManagerSets {
  const out: ManagerSets = new Map();
  for (const [m, vs] of managers) {
    const set = reconcileWithSchema(vs.set, model);
    out.set(m, set === vs.set ? vs : { ...vs, set });
  }
  return out;
}

function union(managers: ManagerSets): FieldSet {
  let all = FieldSet.EMPTY;
  for (const vs of managers.values()) all = all.union(vs.set);
  return all;
}
