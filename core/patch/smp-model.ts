import type { MergeModel } from '../../schemas/merge-strategy.js';
import { goValue, smpErrors } from './smp-errors.js';

const DEDUCED: MergeModel = { kind: 'deduced' };

/** The model of a map's field: a struct's declared field (else its additionalProperties), a map's values. */
export function fieldModel(model: MergeModel, key: string): MergeModel {
  if (model.kind === 'struct') return Object.hasOwn(model.fields, key) ? model.fields[key] : (model.rest ?? DEDUCED);
  return model.kind === 'map' ? model.values : DEDUCED;
}

export function itemModel(model: MergeModel): MergeModel {
  return model.kind === 'list' ? model.items : DEDUCED;
}

/** How a list field takes a patch list: merged (by `keys` for lists of maps, by value otherwise) or replaced. */
export interface ListStrategy {
  merge: boolean;
  keys: string[];
}

/**
 * A declared `x-kubernetes-patch-strategy` decides as in kube ("merge" merges by `patchMergeKey`). Without one, kapi
 * reads the list type: `map` merges by its list-map keys, `set` by value, `atomic` is replaced. Lists of schemaless
 * (deduced) subtrees are replaced.
 */
export function listStrategy(model: MergeModel): ListStrategy {
  if (model.kind !== 'list') return { merge: false, keys: [] };
  const keys = model.patchMergeKey ? [model.patchMergeKey] : model.listType === 'map' ? model.keys : [];
  const declared = declaredStrategy(model.patchStrategy);
  if (declared !== undefined) return { merge: declared === 'merge', keys };
  return { merge: model.listType !== 'atomic', keys };
}

/**
 * The strategy besides `retainKeys` (kube's extractRetainKeysPatchStrategy); undefined when none is declared.
 * kube applies `$retainKeys` wherever a patch carries it, so the retainKeys part changes nothing when applying.
 */
function declaredStrategy(declared: string | undefined): string | undefined {
  if (!declared) return undefined;
  const parts = declared.split(',');
  if (parts.length === 1) return parts[0] === 'retainKeys' ? undefined : parts[0];
  if (parts.length === 2 && parts.includes('retainKeys')) return parts[0] === 'retainKeys' ? parts[1] : parts[0];
  throw smpErrors.badRequest(`unexpected patch strategy: ${goValue(parts)}`);
}
