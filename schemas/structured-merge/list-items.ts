/**
 * The path element of an item of a granular list (SMD listItemToPathElement): a map list's item by its key fields,
 * a set's item by its value. Items that cannot be identified get SMD's error text instead.
 */
import { goCompare } from '../../lib/go/strings.js';
import { goJSON, goJSONString, goQuote } from '../../lib/go/go-values.js';
import { valueElement, type PathElement } from './path-element.js';
import { isObject } from './json-value.js';
import type { ListModel } from './type-model.js';

/** An item that has no path element, with SMD's reason. */
export interface ItemError {
  error: string;
}

interface KeyPlan {
  /** Key field names in Go order, with their JSON-encoded names. */
  names: string[];
  encoded: string[];
}

const plans = new WeakMap<ListModel, KeyPlan>();

function keyPlan(model: ListModel): KeyPlan {
  let p = plans.get(model);
  if (!p) {
    const names = [...model.keys].sort(goCompare);
    plans.set(model, (p = { names, encoded: names.map(goJSONString) }));
  }
  return p;
}

export function listItemElement(model: ListModel, item: unknown): PathElement | ItemError {
  if (model.listType === 'map' && model.keys.length > 0) {
    if (item === null) return { error: 'associative list with keys may not have a null element' };
    if (!isObject(item)) return { error: 'associative list with keys may not have non-map elements' };
    const plan = keyPlan(model);
    let pe = 'k:{';
    for (let i = 0; i < plan.names.length; i++) {
      const v = Object.hasOwn(item, plan.names[i]) ? item[plan.names[i]] : undefined;
      if (v === undefined) {
        // Keys come in the order the schema lists them for this message.
        const missing = model.keys.find((k) => !Object.hasOwn(item, k))!;
        return { error: `associative list with keys has an element that omits key field ${goQuote(missing)} (and doesn't have default value)` };
      }
      pe += (i ? ',' : '') + plan.encoded[i] + ':' + (typeof v === 'string' ? goJSONString(v) : goJSON(v));
    }
    return pe + '}';
  }
  if (isObject(item)) return { error: "associative list without keys has an element that's a map type" };
  if (Array.isArray(item)) return { error: 'not supported: associative list with lists as elements' };
  if (item === null) return { error: "associative list without keys has an element that's an explicit null" };
  return valueElement(item);
}

export function isItemError(x: PathElement | ItemError): x is ItemError {
  return typeof x !== 'string';
}
