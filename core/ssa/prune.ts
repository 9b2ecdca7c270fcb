/**
 * Pruning after an apply merge (SMD Updater.prune): a field, map key or list item is removed from the merged object
 * iff the applier applied it last time, does not apply it now, and no manager (applier or updater) owns it. Done in
 * SMD's three steps: remove everything the applier applied last time; add back what any manager owns; add back
 * what the applier did not own before (dangling items).
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import type { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { withNamedFieldsAsMembers } from './named-fields.js';
import { removeItems } from './remove-items.js';
import { toFieldSet } from '../../schemas/structured-merge/to-field-set.js';
import type { JsonObject } from '../../schemas/structured-merge/json-value.js';

/**
 * `owned` gives the union of every manager's set, the applier's new one included. When the applier still applies
 * everything it applied last time (`last` within its new set) nothing can be pruned and SMD's three walks are skipped.
 */
export function prune(merged: JsonObject, model: MergeModel, last: FieldSet | undefined, applied: FieldSet, owned: () => FieldSet): JsonObject {
  if (!last || last.isSubsetOf(applied)) return merged;
  const named = (s: FieldSet) => withNamedFieldsAsMembers(s, model);
  const fieldSetOf = (o: JsonObject) => named(toFieldSet(o, model));
  const lastNamed = named(last);
  const mergedSet = fieldSetOf(merged);
  const prunedSet = fieldSetOf(removeItems(merged, lastNamed, model));
  const ownedBack = removeItems(merged, mergedSet.difference(prunedSet.union(named(owned()))), model);
  const dangling = mergedSet.difference(fieldSetOf(ownedBack)).intersection(lastNamed);
  return removeItems(merged, dangling, model);
}
