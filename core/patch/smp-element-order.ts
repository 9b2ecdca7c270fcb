import type { MergeModel } from '../../schemas/merge-strategy.js';
import { goValue, smpErrors } from './smp-errors.js';
import { DIRECTIVE, ORDER_PREFIX, asList, asMap, elementKind, extractKey, isMap, newValue, type JsonMap } from './smp-json.js';
import { mergeList, type MergeMapFn } from './smp-lists.js';
import { fieldModel, listStrategy } from './smp-model.js';
import { identify, normalizeOrder, positions } from './smp-order.js';
import { setOwnField } from '../../lib/codec/own-field.js';

/**
 * Applies a `$setElementOrder/<field>` directive (kube's mergePatchIntoOriginal): merges the field's patch list, if
 * any, then orders the list as the directive says, items it does not name keeping their live order. Returns the field,
 * whose patch list the caller must not merge again.
 */
export function applySetElementOrder(
  original: JsonMap,
  patch: JsonMap,
  directiveKey: string,
  model: MergeModel,
  mergeMap: MergeMapFn,
): string {
  const order = asList(patch[directiveKey]);
  const field = extractKey(directiveKey, ORDER_PREFIX);
  const inOriginal = Object.hasOwn(original, field);
  const inPatch = Object.hasOwn(patch, field);
  const live = inOriginal ? asList(original[field]) : [];
  const patchList = inPatch ? asList(patch[field]) : [];
  const listModel = fieldModel(model, field);
  const { keys } = listStrategy(listModel);
  checkOrder(patchList, order, keys);
  if (!inOriginal && !inPatch) return field;

  const kind = elementKind([live, patchList]);
  const server = positions(live, kind, keys);
  let merged = live;
  if (inPatch) merged = inOriginal ? mergeList(live, patchList, listModel, field, false, mergeMap) : (newValue(patchList) as unknown[]);
  const id = identify(kind, keys);
  if (kind === 'map') order.forEach(id);
  setOwnField(original, field, normalizeOrder(merged, id, positions(order, kind, keys), server));
  return field;
}

/**
 * kube's validatePatchWithSetOrderList: the patch list (less its `$patch: delete` items) must name its items in the
 * directive's relative order, and only items the directive names.
 */
function checkOrder(patchList: unknown[], order: unknown[], keys: string[]): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = keys.length === 0 ? patchList : patchList.filter((item) => asMap(item)[DIRECTIVE] !== 'delete');
  const id = identify(keys.length === 0 ? 'primitive' : 'map', keys);
  let p = 0;
  let s = 0;
  while (p < items.length && s < order.length) {
    const item = items[p];
    if (isMap(item) && Object.hasOwn(item, DIRECTIVE)) {
      p++;
      continue;
    }
    if (id(item) === id(order[s])) p++;
    s++;
  }
  if (p < items.length) {
    throw smpErrors.badRequest(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${ORDER_PREFIX} list:\n${goValue(order)}\n`);
  }
}
