/**
 * Reconciles a manager's set with schema changes since it was written (SMD ReconcileFieldSetWithSchema): where the
 * set has paths under a map, struct or list the model now says is atomic, the manager owns the atomic node instead
 * (granular → atomic). Atomic → granular needs nothing: the manager keeps the node, not its new children (the spec's
 * "Compatibility across topology changes"). Deduced subtrees and fields the model does not know are left alone.
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { childModel } from '../../schemas/structured-merge/type-model.js';

/** The reconciled set, or the same set when nothing changes. */
export function reconcileWithSchema(set: FieldSet, model: MergeModel): FieldSet {
  if (!set.children) return set;
  let out: FieldSet | undefined;
  for (const [pe, child] of set.children) {
    const m = elementModel(model, pe);
    if (!m) continue;
    if (collapses(m)) {
      // The subtree goes; the node itself is owned instead.
      out ??= copy(set);
      out.children!.delete(pe);
      out.addMember(pe);
      continue;
    }
    const next = reconcileWithSchema(child, m);
    if (next !== child) (out ??= copy(set)).children!.set(pe, next);
  }
  return out ?? set;
}

/** A node with children in the set whose model is now atomic. */
function collapses(m: MergeModel): boolean {
  return ((m.kind === 'struct' || m.kind === 'map') && m.atomic) || (m.kind === 'list' && m.listType === 'atomic');
}

function elementModel(model: MergeModel, pe: string): MergeModel | undefined {
  if (model.kind === 'deduced') return undefined;
  if (pe[0] === 'f') return model.kind === 'struct' || model.kind === 'map' ? childModel(model, pe.slice(2)) : undefined;
  return model.kind === 'list' ? model.items : undefined;
}

function copy(set: FieldSet): FieldSet {
  const out = new FieldSet();
  out.members = new Set(set.members ?? []);
  out.children = new Map(set.children);
  return out;
}
