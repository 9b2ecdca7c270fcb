/**
 * SMD's Set.EnsureNamedFieldsAreMembers: a set where every declared struct field that has members under it is a
 * member too (`.spec` when `.spec.replicas` is), so that pruning can remove a struct field as a whole. Map keys,
 * list items and deduced fields are left as they are.
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { childModel, isDeclared } from '../../schemas/structured-merge/type-model.js';

export function withNamedFieldsAsMembers(set: FieldSet, model: MergeModel | undefined): FieldSet {
  if (!set.children) return set;
  const out = new FieldSet();
  if (set.members) out.members = new Set(set.members);
  for (const [pe, child] of set.children) {
    let m: MergeModel | undefined;
    if (pe[0] === 'f' && model && (model.kind === 'struct' || model.kind === 'map' || model.kind === 'deduced')) {
      const name = pe.slice(2);
      if (isDeclared(model, name)) out.addMember(pe);
      m = childModel(model, name);
    } else if (pe[0] === 'k' && model?.kind === 'list') {
      m = model.items;
    }
    out.attach(pe, withNamedFieldsAsMembers(child, m));
  }
  return out;
}
