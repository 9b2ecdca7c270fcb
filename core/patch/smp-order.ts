import { smpErrors } from './smp-errors.js';
import { asMap, isMap, type JsonMap } from './smp-json.js';

/** An item's identity in a list: the value of its merge key(s) for maps, the item itself for primitives. */
export type Identify = (item: unknown) => unknown;

/**
 * The identity of a list-map item: its merge key's value, or with several keys the tuple of their values (items match
 * on all keys, an absent key matching only absence); undefined when the item has none of them.
 */
export function mergeKeyOf(item: JsonMap, keys: string[]): string | undefined {
  if (keys.length === 1) return Object.hasOwn(item, keys[0]) ? JSON.stringify(item[keys[0]]) : undefined;
  let found = false;
  const parts = keys.map((k) => {
    if (!Object.hasOwn(item, k)) return '~';
    found = true;
    return JSON.stringify(item[k]);
  });
  return found ? parts.join(',') : undefined;
}

/** Identifies maps by merge key (kube's error for an item without one) and primitives by value. */
export function identify(kind: string, keys: string[]): Identify {
  if (kind !== 'map') return (item) => item;
  return (item) => {
    const key = mergeKeyOf(asMap(item), keys);
    if (key === undefined) throw smpErrors.noMergeKey(item, keys.join(','));
    return key;
  };
}

/** Each identity's first position in `list`; maps without a merge key are left out. */
export function positions(list: unknown[], kind: string, keys: string[]): Map<unknown, number> {
  const pos = new Map<unknown, number>();
  list.forEach((item, i) => {
    const id = kind !== 'map' ? item : isMap(item) ? mergeKeyOf(item, keys) : undefined;
    if (id !== undefined && !pos.has(id)) pos.set(id, i);
  });
  return pos;
}

interface Keyed {
  value: unknown;
  id: unknown;
}

/**
 * Orders a merged list as kube does (normalizeElementOrder): the items `order` names (the patch list, or a
 * `$setElementOrder` list) sorted by it, the others by their live position (`server`), then interleaved so both
 * relative orders hold and an item goes before a named one that follows it in the live list.
 */
export function normalizeOrder(merged: unknown[], id: Identify, order: Map<unknown, number>, server: Map<unknown, number>): unknown[] {
  const named: Keyed[] = [];
  const others: Keyed[] = [];
  for (const value of merged) {
    const key = id(value);
    (order.has(key) ? named : others).push({ value, id: key });
  }
  sortBy(named, order);
  sortBy(others, server);
  const out: unknown[] = new Array(merged.length);
  let i = 0;
  let j = 0;
  for (let n = 0; n < out.length; n++) {
    if (j >= named.length || (i < others.length && livesBefore(others[i], named[j], server))) out[n] = others[i++].value;
    else out[n] = named[j++].value;
  }
  return out;
}

function livesBefore(a: Keyed, b: Keyed, server: Map<unknown, number>): boolean {
  const i = server.get(a.id);
  const j = server.get(b.id);
  return i !== undefined && j !== undefined && i < j;
}

function sortBy(list: Keyed[], pos: Map<unknown, number>): void {
  list.sort((a, b) => {
    const i = pos.get(a.id);
    const j = pos.get(b.id);
    return i === undefined || j === undefined ? 0 : i - j;
  });
}
