/**
 * The comparison of two versions of an object (SMD TypedValue.Compare): the paths the new one added, modified and
 * removed. A leaf is modified when its value changed; a map, list or list item that appears or disappears is added
 * or removed together with everything under it. Identical subtrees (the same JS value) are skipped.
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { isItemError, listItemElement } from '../../schemas/structured-merge/list-items.js';
import { fieldElement, type PathElement } from '../../schemas/structured-merge/path-element.js';
import { childModel, DEDUCED, isEmptyContainer, itemModel, nodeKind, type ListModel } from '../../schemas/structured-merge/type-model.js';
import { TypedValueError, validationError } from '../../schemas/structured-merge/typed-errors.js';
import { valuesEqual, type JsonObject } from '../../schemas/structured-merge/json-value.js';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compareObjects(lhs: JsonObject, rhs: JsonObject, model: MergeModel): Comparison {
  const w = new CompareWalker();
  if (lhs !== rhs) w.mapItems(lhs, rhs, model);
  const result = (s: FieldSet) => (s.isEmpty() ? FieldSet.EMPTY : s);
  return { added: result(w.added), modified: result(w.modified), removed: result(w.removed) };
}

/** The items of a list by path element; items sharing one (duplicates, allowed in stored objects) are grouped. */
interface IndexedList {
  single: Map<PathElement, unknown>;
  dups: Map<PathElement, unknown[]>;
}

class CompareWalker {
  readonly path: PathElement[] = [];
  readonly added = new FieldSet();
  readonly modified = new FieldSet();
  readonly removed = new FieldSet();

  node(l: unknown, r: unknown, model: MergeModel, pe: PathElement): void {
    if (l === r) return;
    this.path.push(pe);
    if (l === undefined) this.all(r, model, this.added);
    else if (r === undefined) this.all(l, model, this.removed);
    else this.both(l, r, model);
    this.path.pop();
  }

  private both(l: unknown, r: unknown, model: MergeModel): void {
    const kl = nodeKind(model, l);
    const kr = nodeKind(model, r);
    if (kl !== kr) {
      // The value changed shape (e.g. a deduced field from an object to a string).
      this.modified.insert(this.path);
      this.descendants(l, model, this.removed);
      this.descendants(r, model, this.added);
    } else if (kl === 'leaf' || (isEmptyContainer(l) && isEmptyContainer(r))) {
      if (!valuesEqual(l, r)) this.modified.insert(this.path);
    } else if (kl === 'map') {
      this.mapItems((l ?? {}) as JsonObject, (r ?? {}) as JsonObject, model);
    } else {
      this.listItems((l ?? []) as unknown[], (r ?? []) as unknown[], model as ListModel);
    }
  }

  mapItems(l: JsonObject, r: JsonObject, model: MergeModel): void {
    for (const key in l) this.node(l[key], Object.hasOwn(r, key) ? r[key] : undefined, childModel(model, key) ?? DEDUCED, fieldElement(key));
    for (const key in r) if (!Object.hasOwn(l, key)) this.node(undefined, r[key], childModel(model, key) ?? DEDUCED, fieldElement(key));
  }

  private listItems(l: unknown[], r: unknown[], model: ListModel): void {
    const li = this.index(l, model);
    const ri = this.index(r, model);
    for (const [pe, lv] of li.single) {
      const rdups = ri.dups.get(pe);
      if (!rdups) this.node(lv, ri.single.get(pe), model.items, pe);
      else this.dupsAppeared(pe, lv, model.items);
    }
    for (const [pe, lvs] of li.dups) {
      const rdups = ri.dups.get(pe);
      if (rdups) {
        if (!valuesEqual(lvs, rdups)) this.modified.insert([...this.path, pe]);
        continue;
      }
      // Duplicates before, not anymore: the new item is added and the duplicate marker removed.
      this.node(undefined, ri.single.get(pe), model.items, pe);
      this.removed.insert([...this.path, pe]);
    }
    for (const [pe, rv] of ri.single) if (!li.single.has(pe) && !li.dups.has(pe)) this.node(undefined, rv, model.items, pe);
    for (const pe of ri.dups.keys()) if (!li.single.has(pe) && !li.dups.has(pe)) this.added.insert([...this.path, pe]);
  }

  /** New duplicates: the old item is removed, the duplicate marker added. */
  private dupsAppeared(pe: PathElement, lv: unknown, items: MergeModel): void {
    this.node(lv, undefined, items, pe);
    this.added.insert([...this.path, pe]);
  }

  private index(items: unknown[], model: ListModel): IndexedList {
    const single = new Map<PathElement, unknown>();
    const dups = new Map<PathElement, unknown[]>();
    for (let i = 0; i < items.length; i++) {
      const pe = listItemElement(model, items[i]);
      if (isItemError(pe)) throw new TypedValueError([validationError(this.path, `element ${i}: ${pe.error}`)]);
      const d = dups.get(pe);
      if (d) d.push(items[i]);
      else if (single.has(pe)) {
        dups.set(pe, [single.get(pe), items[i]]);
        single.delete(pe);
      } else single.set(pe, items[i]);
    }
    return { single, dups };
  }

  /** The node at the current path and everything under it. */
  private all(v: unknown, model: MergeModel, into: FieldSet): void {
    into.insert(this.path);
    this.descendants(v, model, into);
  }

  private descendants(v: unknown, model: MergeModel, into: FieldSet): void {
    const kind = nodeKind(model, v);
    if (kind === 'leaf' || isEmptyContainer(v)) return;
    if (kind === 'map') {
      const o = v as JsonObject;
      for (const key in o) {
        this.path.push(fieldElement(key));
        this.all(o[key], childModel(model, key) ?? DEDUCED, into);
        this.path.pop();
      }
      return;
    }
    const { single, dups } = this.index(v as unknown[], model as ListModel);
    const items = itemModel(model);
    for (const [pe, item] of single) {
      this.path.push(pe);
      this.all(item, items, into);
      this.path.pop();
    }
    for (const pe of dups.keys()) into.insert([...this.path, pe]);
  }
}
