import type { MergeModel } from '../../schemas/merge-strategy.js';
import { smpErrors } from './smp-errors.js';
import { DIRECTIVE, elementKind, newValue, type JsonMap } from './smp-json.js';
import { itemModel, listStrategy } from './smp-model.js';
import { identify, mergeKeyOf, normalizeOrder, positions } from './smp-order.js';

/** Merges a patch map into a live map (passed in to keep the list and map halves apart). */
export type MergeMapFn = (original: JsonMap, patch: JsonMap, model: MergeModel) => JsonMap;

/**
 * Merges a patch list into the live list of field `name` (kube's mergeSliceHandler): replaced unless the field's
 * strategy merges; a `$deleteFromPrimitiveList` list (`deleteList`) removes its values whatever the strategy.
 */
export function mergeList(
  original: unknown[],
  patch: unknown[],
  model: MergeModel,
  name: string,
  deleteList: boolean,
  mergeMap: MergeMapFn,
): unknown[] {
  const { merge, keys } = listStrategy(model);
  if (!merge && !deleteList) return newValue(patch) as unknown[];
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind([original, patch]);
  if (kind !== 'map') return deleteList ? withoutValues(original, patch) : mergePrimitives(original, patch, kind);
  if (keys.length === 0) throw smpErrors.badRequest(`cannot merge lists without merge key for ${name}`);
  return mergeMaps(original, patch, keys, itemModel(model), mergeMap);
}

/** A set: the union without duplicates, in patch order interleaved with the live order. */
function mergePrimitives(original: unknown[], patch: unknown[], kind: string): unknown[] {
  const merged = [...new Set([...original, ...patch])];
  return normalizeOrder(merged, (v) => v, positions(patch, kind, []), positions(original, kind, []));
}

function withoutValues(original: unknown[], values: unknown[]): unknown[] {
  const drop = new Set(values);
  return original.filter((v) => !drop.has(v));
}

/**
 * Lists of maps, by merge key: a `$patch: delete` item removes every live item with its key, `$patch: replace` makes
 * the patch's other items the whole list; an item matching a live one merges into it, the others are appended.
 */
function mergeMaps(original: unknown[], patch: unknown[], keys: string[], model: MergeModel, mergeMap: MergeMapFn): unknown[] {
  const id = identify('map', keys);
  const items: JsonMap[] = [];
  const deleted = new Set<unknown>();
  let replace = false;
  for (const item of patch as JsonMap[]) {
    if (!Object.hasOwn(item, DIRECTIVE)) items.push(item);
    else if (item[DIRECTIVE] === 'delete') deleted.add(id(item));
    else if (item[DIRECTIVE] === 'replace') replace = true;
    else if (item[DIRECTIVE] === 'merge') throw smpErrors.badRequest('merging lists cannot yet be specified in the patch');
    else throw smpErrors.badPatchType(item[DIRECTIVE], item);
  }
  if (replace) {
    items.forEach(id);
    return newValue(items) as unknown[];
  }
  const live = deleted.size === 0 ? original.slice() : original.filter((item) => !deleted.has(mergeKeyOf(item as JsonMap, keys)));
  const server = positions(live, 'map', keys);
  const at = new Map(server);
  for (const item of items) {
    const key = id(item);
    const i = at.get(key);
    if (i === undefined) {
      at.set(key, live.length);
      live.push(newValue(item));
    } else {
      live[i] = mergeMap(live[i] as JsonMap, item, model);
    }
  }
  return normalizeOrder(live, id, positions(items, 'map', keys), server);
}
