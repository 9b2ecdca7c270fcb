/**
 * Removal of the fields, map keys and list items of a set from an object (SMD TypedValue.RemoveItems, v4): a member
 * is removed with everything under it; children are removed from within. As in SMD, a granular map or list left
 * empty becomes null, and an atomic or empty value under a removed path becomes null. Unchanged subtrees are shared.
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import type { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { isItemError, listItemElement } from '../../schemas/structured-merge/list-items.js';
import { fieldElement } from '../../schemas/structured-merge/path-element.js';
import { childModel, DEDUCED, itemModel, type ListModel } from '../../schemas/structured-merge/type-model.js';
import { isObject, type JsonObject } from '../../schemas/structured-merge/json-value.js';
import { setOwnField } from '../../lib/codec/own-field.js';

export function removeItems(object: JsonObject, set: FieldSet, model: MergeModel): JsonObject {
  if (set.isEmpty()) return object;
  return (removeFromMap(object, set, model) ?? {}) as JsonObject;
}

function removeFrom(v: unknown, set: FieldSet, model: MergeModel): unknown {
  switch (model.kind) {
    case 'scalar':
      return v;
    case 'deduced':
      if (isObject(v)) return removeFromMap(v, set, model);
      return Array.isArray(v) || v === null ? null : v;
    case 'struct':
    case 'map':
      return isObject(v) && !model.atomic ? removeFromMap(v, set, model) : null;
    case 'list':
      return Array.isArray(v) && model.listType !== 'atomic' ? removeFromList(v, set, model) : null;
  }
}

function removeFromMap(o: JsonObject, set: FieldSet, model: MergeModel): JsonObject | null {
  let out: JsonObject | undefined;
  let kept = 0;
  for (const key in o) {
    const pe = fieldElement(key);
    if (set.members?.has(pe)) {
      out ??= copyUpTo(o, key);
      continue;
    }
    const sub = set.children?.get(pe);
    const v = sub ? removeFrom(o[key], sub, childModel(model, key) ?? DEDUCED) : o[key];
    if (v !== o[key]) out ??= copyUpTo(o, key);
    if (out) setOwnField(out, key, v);
    kept++;
  }
  if (kept === 0) return null;
  return out ?? o;
}

/** A copy of `o` with the keys before `key`. */
function copyUpTo(o: JsonObject, key: string): JsonObject {
  const out: JsonObject = {};
  for (const k in o) {
    if (k === key) break;
    setOwnField(out, k, o[k]);
  }
  return out;
}

function removeFromList(items: unknown[], set: FieldSet, model: ListModel): unknown[] | null {
  if (items.length === 0) return null;
  const out: unknown[] = [];
  let changed = false;
  for (const item of items) {
    const pe = listItemElement(model, item);
    if (isItemError(pe)) {
      out.push(item);
      continue;
    }
    if (set.members?.has(pe)) {
      changed = true;
      continue;
    }
    const sub = set.children?.get(pe);
    const v = sub ? removeFrom(item, sub, itemModel(model)) : item;
    if (v !== item) changed = true;
    out.push(v);
  }
  if (out.length === 0) return null;
  return changed ? out : items;
}
