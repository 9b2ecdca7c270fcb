/**
 * The bookkeeping kube-apiserver's default field manager wraps around structured-merge-diff, in its order:
 * - skip non-applied: an object without managedFields is not tracked by updates (only creates start tracking), and
 *   its first apply attributes all existing fields to a `before-first-apply` Update entry;
 * - manager identifiers (`unknown` for an empty name); the update's changes are owned by the writer's entry
 *   (merged with its earlier updates), whose time is set only when it took fields;
 * - an applier's time is set only when the apply changed the object;
 * - type and object metadata are stripped from the writer's set; at most 10 updaters are kept.
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { capUpdateManagers } from './cap-managers.js';
import type { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { managerIdentifier, type Managed } from './managed-fields.js';
import { STRIPPED_FIELDS } from './untracked-fields.js';
import { applyConfig, updateObject, type ManagerSets, type UpdaterContext, type VersionView } from './updater.js';
import type { JsonObject } from '../../schemas/structured-merge/json-value.js';

export interface PipelineContext {
  /** The model of the whole object (with ObjectMeta's). */
  model: MergeModel;
  apiVersion: string;
  subresource: string;
  now: string;
  /** Reset fields of the endpoint. */
  ignored: FieldSet;
  /** The other versions managers' fields may be in (see UpdaterContext). */
  otherVersion?: (apiVersion: string) => VersionView | undefined;
}

const CURRENT_OPERATION = 'current-operation';
const BEFORE_FIRST_APPLY = 'before-first-apply';

function updaterContext(ctx: PipelineContext): UpdaterContext {
  return { model: ctx.model, apiVersion: ctx.apiVersion, ignored: ctx.ignored, otherVersion: ctx.otherVersion };
}

function strip(sets: ManagerSets, id: string): void {
  const vs = sets.get(id);
  if (!vs) return;
  const set = vs.set.difference(STRIPPED_FIELDS);
  if (set.isEmpty()) sets.delete(id);
  else if (set !== vs.set) sets.set(id, { ...vs, set });
}

/** A non-apply write of `updated` over `live` by `manager`. `stored`: live is a stored object (it has a uid). */
export function trackUpdate(live: JsonObject, updated: JsonObject, managed: Managed, manager: string, ctx: PipelineContext, stored: boolean): Managed {
  if (managed.sets.size === 0 && stored) return managed;
  const id = managerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource });
  const sets = updateObject(live, updated, updaterContext(ctx), managed.sets, CURRENT_OPERATION);
  strip(sets, CURRENT_OPERATION);
  const times = new Map(managed.times);
  const current = sets.get(CURRENT_OPERATION);
  if (current) {
    sets.delete(CURRENT_OPERATION);
    const previous = sets.get(id)?.set;
    // Keep the earlier set (and its encoding) when this write took nothing new.
    const set = !previous ? current.set : current.set.isSubsetOf(previous) ? previous : current.set.union(previous);
    sets.set(id, { ...current, set });
    times.set(id, ctx.now);
  }
  const out = { sets, times };
  capUpdateManagers(out);
  return out;
}

export interface TrackedApply {
  /** The merged object; `live` itself when the apply changed nothing. */
  object: JsonObject;
  managed: Managed;
}

/** An apply of `config` (whose field set is `configSet`) by `manager`; throws Conflicts unless `force`. */
export function trackApply(live: JsonObject, config: JsonObject, configSet: FieldSet, managed: Managed, manager: string, force: boolean, ctx: PipelineContext): TrackedApply {
  if (managed.sets.size === 0) managed = trackUpdate({}, live, managed, BEFORE_FIRST_APPLY, ctx, false);
  const id = managerIdentifier({ manager: manager || 'unknown', operation: 'Apply', subresource: ctx.subresource });
  const result = applyConfig(live, config, configSet, updaterContext(ctx), managed.sets, id, force);
  strip(result.managers, id);
  // An applier that applied the same fields keeps its set (and its encoding).
  const previous = managed.sets.get(id)?.set;
  const now = result.managers.get(id);
  if (previous && now && now.set !== previous && now.set.equals(previous)) result.managers.set(id, { ...now, set: previous });
  const times = new Map(managed.times);
  if (result.changed) times.set(id, ctx.now);
  return { object: result.changed ? result.object : live, managed: { sets: result.managers, times } };
}
