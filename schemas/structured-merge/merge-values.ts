/**
 * The merge of an applied configuration into the live object (SMD TypedValue.Merge): granular maps merge key by
 * key, set and map lists item by item, and leaves (scalars, atomic values) take the configuration's value. Nothing
 * is removed here; pruning what the applier stopped applying is core/ssa/prune.ts's job.
 *
 * The result shares every subtree the configuration does not change with the live object (and is the live object
 * itself when nothing changes), so an unchanged apply is cheap to detect.
 */
import type { MergeModel } from '../merge-strategy.js';
import { isItemError, listItemElement } from './list-items.js';
import { fieldElement, type PathElement } from './path-element.js';
import { childModel, DEDUCED, isEmptyContainer, nodeKind, type ListModel } from './type-model.js';
import { TypedValueError, validationError } from './typed-errors.js';
import { valuesEqual, type JsonObject } from './json-value.js';
import { setOwnField } from '../../lib/codec/own-field.js';

/** `config` must have been validated (toFieldSet strict): its lists have no duplicates and every item its keys. */
export function mergeObjects(live: JsonObject, config: JsonObject, model: MergeModel): JsonObject {
  return new MergeWalker().map(live, config, model);
}

/** Marks a path element several live items share: those are not merged with the configuration's item. */
const DUPLICATE = Symbol('duplicate');

class MergeWalker {
  private readonly path: PathElement[] = [];

  value(l: unknown, r: unknown, model: MergeModel, pe: PathElement): unknown {
    if (r === undefined) return l;
    if (l === undefined) return r;
    const kind = nodeKind(model, l);
    if (kind === 'leaf' || kind !== nodeKind(model, r) || (isEmptyContainer(l) && isEmptyContainer(r))) {
      return valuesEqual(l, r) ? l : r;
    }
    if (l === null) return r;
    if (r === null) return l;
    this.path.push(pe);
    const out = kind === 'map' ? this.map(l as JsonObject, r as JsonObject, model) : this.list(l as unknown[], r as unknown[], model as ListModel);
    this.path.pop();
    return out;
  }

  map(l: JsonObject, r: JsonObject, model: MergeModel): JsonObject {
    let out: JsonObject | undefined;
    for (const key in r) {
      const lv = Object.hasOwn(l, key) ? l[key] : undefined;
      const v = this.value(lv, r[key], childModel(model, key) ?? DEDUCED, fieldElement(key));
      if (v !== lv) setOwnField((out ??= { ...l }), key, v);
    }
    return out ?? l;
  }

  /**
   * Items in SMD's order: live items the configuration does not mention keep their place; items both have come in
   * the configuration's order, each where the live list has the next of them; the configuration's new items follow
   * the item before them in the configuration.
   */
  private list(l: unknown[], r: unknown[], model: ListModel): unknown[] {
    const rPEs = r.map((item) => listItemElement(model, item) as PathElement);
    const rItems = new Map<PathElement, unknown>();
    for (let i = 0; i < r.length; i++) rItems.set(rPEs[i], r[i]);
    const lPEs: PathElement[] = new Array(l.length);
    const lItems = new Map<PathElement, unknown>();
    for (let i = 0; i < l.length; i++) {
      const pe = listItemElement(model, l[i]);
      if (isItemError(pe)) throw new TypedValueError([validationError(this.path, `element ${i}: ${pe.error}`)]);
      lPEs[i] = pe;
      lItems.set(pe, lItems.has(pe) ? DUPLICATE : l[i]);
    }
    const shared = rPEs.filter((pe) => lItems.has(pe));
    let si = 0;
    let nextShared: PathElement | undefined = shared[si++];
    const merged = new Set<PathElement>();
    const out: unknown[] = [];
    const mergeItem = (pe: PathElement) => {
      merged.add(pe);
      const lv = lItems.get(pe);
      out.push(this.value(lv === DUPLICATE ? undefined : lv, rItems.get(pe), model.items, pe));
    };
    let li = 0;
    let ri = 0;
    while (li < l.length || ri < r.length) {
      if (li < l.length && ri < r.length) {
        const pe = lPEs[li];
        if (pe === rPEs[ri]) {
          mergeItem(pe);
          li++;
          ri++;
          nextShared = shared[si++];
          continue;
        }
        if (rItems.has(pe) && nextShared !== undefined && nextShared !== pe) {
          li++; // a shared item, but not the next one in the configuration's order
          continue;
        }
      }
      if (li < l.length) {
        const pe = lPEs[li];
        if (!rItems.has(pe)) {
          out.push(l[li++]);
          continue;
        }
        if (merged.has(pe)) {
          li++;
          continue;
        }
      }
      if (ri < r.length) {
        const pe = rPEs[ri++];
        mergeItem(pe);
        if (nextShared === pe) nextShared = shared[si++];
      }
    }
    return out.length === l.length && out.every((v, i) => v === l[i]) ? l : out;
  }
}
