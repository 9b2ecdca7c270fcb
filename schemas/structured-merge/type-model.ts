/**
 * How the typed walks read a MergeModel, as structured-merge-diff reads a schema atom: what a value is at a node
 * (a leaf, a granular map, a granular list) and which model its children have.
 */
import type { MergeModel } from '../merge-strategy.js';
import { withObjectMeta } from '../object-meta-model.js';
import { isObject } from './json-value.js';

export type ListModel = Extract<MergeModel, { kind: 'list' }>;

export const DEDUCED: MergeModel = { kind: 'deduced' };

/**
 * - `leaf`: scalars, atomic maps/structs/lists, deduced lists, and values whose shape does not match the model;
 * - `map`: granular structs and maps (and deduced objects), null counting as an empty map;
 * - `list`: set and map lists, null counting as an empty list.
 */
export type NodeKind = 'leaf' | 'map' | 'list';

export function nodeKind(model: MergeModel, value: unknown): NodeKind {
  switch (model.kind) {
    case 'struct':
    case 'map':
      return !model.atomic && (value === null || isObject(value)) ? 'map' : 'leaf';
    case 'list':
      return model.listType !== 'atomic' && (value === null || Array.isArray(value)) ? 'list' : 'leaf';
    case 'deduced':
      return value === null || isObject(value) ? 'map' : 'leaf';
  }
  return 'leaf';
}

/**
 * The model of key `key` of a map node, or undefined for a field a struct does not declare (and has no `rest`
 * for). Deduced maps have deduced values.
 */
export function childModel(model: MergeModel, key: string): MergeModel | undefined {
  switch (model.kind) {
    case 'struct':
      return Object.prototype.hasOwnProperty.call(model.fields, key) ? model.fields[key] : model.rest;
    case 'map':
      return model.values;
    case 'deduced':
      return DEDUCED;
  }
  return undefined;
}

/** Whether `key` is a declared field (SMD FindField): struct fields only; map keys and deduced keys are not. */
export function isDeclared(model: MergeModel, key: string): boolean {
  return model.kind === 'struct' && Object.prototype.hasOwnProperty.call(model.fields, key);
}

/** The item model of a list node. */
export function itemModel(model: MergeModel): MergeModel {
  return model.kind === 'list' ? model.items : DEDUCED;
}

/** Whether a granular map/list node is empty (null or no entries): SMD then treats it as a leaf. */
export function isEmptyContainer(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  for (const _ in value as object) return false;
  return true;
}

const objectModels = new WeakMap<MergeModel, MergeModel>();

/** The model of a whole object: the version's model with ObjectMeta's for `metadata` (cached per model). */
export function objectModel(model: MergeModel): MergeModel {
  let m = objectModels.get(model);
  if (!m) {
    objectModels.set(model, (m = withObjectMeta(model)));
  }
  return m;
}
