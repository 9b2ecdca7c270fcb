import type { MergeModel } from '../../schemas/merge-strategy.js';
import { smpErrors } from './smp-errors.js';
import { applySetElementOrder } from './smp-element-order.js';
import {
  DELETE_PREFIX,
  DIRECTIVE,
  DROP,
  ORDER_PREFIX,
  RETAIN_KEYS,
  extractKey,
  isMap,
  kindOf,
  newMap,
  newValue,
  type JsonMap,
} from './smp-json.js';
import { mergeList } from './smp-lists.js';
import { fieldModel } from './smp-model.js';
import { setOwnField } from '../../lib/codec/own-field.js';

/**
 * Applies a strategic merge patch to `doc` as kube-apiserver does (k8s.io/apimachinery strategicpatch,
 * StrategicMergeMapPatch), lists merging or not as the object's merge `model` says (see `listStrategy`). For
 * ObjectMeta's strategies, `metadata`'s model must be ObjectMeta's (schemas/object-meta-model.ts `withObjectMeta`). Neither argument is modified. Throws an
 * ApiError (400, or 422 for lists of lists) for a malformed patch.
 */
export function applyStrategicMergePatch(doc: Record<string, unknown>, patch: Record<string, unknown>, model: MergeModel): Record<string, unknown> {
  return mergeMap(structuredClone(doc), patch, model);
}

/** kube's mergeMap; merges into `original` in place and only reads `patch`. */
function mergeMap(original: JsonMap, patch: JsonMap, model: MergeModel): JsonMap {
  if (Object.hasOwn(patch, DIRECTIVE)) return mapDirective(patch);
  if (Object.hasOwn(patch, RETAIN_KEYS)) retainKeys(original, patch);
  const ordered = new Set<string>();
  for (const key of Object.keys(patch)) {
    if (key.startsWith(ORDER_PREFIX)) ordered.add(applySetElementOrder(original, patch, key, model, mergeMap));
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === RETAIN_KEYS || key.startsWith(ORDER_PREFIX) || ordered.has(key)) continue;
    if (key.startsWith(DELETE_PREFIX)) mergeField(original, extractKey(key, DELETE_PREFIX), value, model, true);
    else mergeField(original, key, value, model, false);
  }
  return original;
}

/** `$patch` in a map: `replace` takes the patch as the whole map, `delete` leaves an empty map (as kube does). */
function mapDirective(patch: JsonMap): JsonMap {
  const directive = patch[DIRECTIVE];
  if (directive === 'replace') return newMap(patch, DIRECTIVE);
  if (directive === 'delete') return {};
  throw smpErrors.badPatchType(directive, patch);
}

/** `$retainKeys`: clears the live fields it does not list; every field the patch sets must be listed. */
function retainKeys(original: JsonMap, patch: JsonMap): void {
  const listed = patch[RETAIN_KEYS];
  if (!Array.isArray(listed)) throw smpErrors.retainKeysFormat();
  const keep = new Set<unknown>(listed);
  for (const [key, value] of Object.entries(patch)) {
    if (key === RETAIN_KEYS || value === null || key.startsWith(DELETE_PREFIX) || key.startsWith(ORDER_PREFIX)) continue;
    if (!keep.has(key)) throw smpErrors.retainKeysFormat();
  }
  for (const key of Object.keys(original)) if (!keep.has(key)) delete original[key];
}

/**
 * One field of a patch map: null deletes; a value of another kind than the live one (or a new field) is taken as
 * is; maps merge and lists merge per their strategy. `deleteList` marks a `$deleteFromPrimitiveList` value, which
 * only ever removes.
 */
function mergeField(original: JsonMap, key: string, value: unknown, model: MergeModel, deleteList: boolean): void {
  if (value === null) {
    delete original[key];
    return;
  }
  const live = Object.hasOwn(original, key) ? original[key] : undefined;
  if (live === undefined || kindOf(live) !== kindOf(value)) {
    if (deleteList) return;
    const taken = newValue(value);
    if (taken === DROP) delete original[key];
    else setOwnField(original, key, taken);
  } else if (isMap(value)) {
    setOwnField(original, key, mergeMap(live as JsonMap, value, fieldModel(model, key)));
  } else if (Array.isArray(value)) {
    setOwnField(original, key, mergeList(live as unknown[], value, fieldModel(model, key), key, deleteList, mergeMap));
  } else {
    setOwnField(original, key, value);
  }
}
