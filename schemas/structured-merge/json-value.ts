/**
 * JSON values as structured-merge-diff's value package treats them: equality (value.Equals) and total order
 * (value.Compare: numbers < strings < booleans < lists < maps < null; lists and maps compared lexically).
 */
import { goCompare } from '../../lib/go/strings.js';

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}


/** Deep equality of two JSON values (ints and floats compare numerically, as in Go). */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  let n = 0;
  for (const k in ao) {
    if (!Object.prototype.hasOwnProperty.call(bo, k) || !valuesEqual(ao[k], bo[k])) return false;
    n++;
  }
  for (const _ in bo) n--;
  return n === 0;
}

function rank(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
  }
  if (Array.isArray(v)) return 3;
  return v === null || v === undefined ? 5 : 4;
}

/** value.Compare: -1, 0 or 1. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return goCompare(a as string, b as string);
    case 2:
      return a === b ? 0 : a === false ? -1 : 1;
    case 3:
      return compareLists(a as unknown[], b as unknown[]);
    case 4:
      return compareMaps(a as JsonObject, b as JsonObject);
  }
  return 0;
}

function compareLists(a: unknown[], b: unknown[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
}

/** Maps zipped in lexical key order; the first difference decides (a missing key sorts after a present one). */
function compareMaps(a: JsonObject, b: JsonObject): number {
  const la = Object.keys(a).length;
  const lb = Object.keys(b).length;
  if (la === 0 && lb === 0) return 0;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(goCompare);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === la) c = -1;
    else if (i === lb) c = 1;
    else if (!(k in a)) c = 1;
    else if (!(k in b)) c = -1;
    else c = compareValues(a[k], b[k]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}
