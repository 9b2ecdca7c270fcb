import { goValue, smpErrors } from './smp-errors.js';
import { setOwnField } from '../../lib/codec/own-field.js';

export type JsonMap = Record<string, unknown>;

export const DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const DELETE_PREFIX = '$deleteFromPrimitiveList';
export const ORDER_PREFIX = '$setElementOrder';

/** What `newValue` returns for a value that does not make it into the result. */
export const DROP = Symbol('drop');

export function isMap(v: unknown): v is JsonMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : typeof v;
}

/** The field a `$deleteFromPrimitiveList/<field>` or `$setElementOrder/<field>` key names. */
export function extractKey(key: string, prefix: typeof DELETE_PREFIX | typeof ORDER_PREFIX): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === DELETE_PREFIX ? smpErrors.primitiveListFormat() : smpErrors.setElementOrderFormat();
  }
  return key.slice(slash + 1);
}

/**
 * A patch value taken as is, with nothing to merge into: nulls are dropped and maps carrying `$patch` removed, as kube
 * does (discardNullValuesFromPatch, removeDirectives). kapi also drops the other directive keys, which kube leaves
 * for the typed decoding to discard. Returns a copy, or DROP when the value itself goes.
 */
export function newValue(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const item of v) {
      const kept = newValue(item);
      if (kept !== DROP) out.push(kept);
    }
    return out;
  }
  if (!isMap(v)) return v;
  return v[DIRECTIVE] !== undefined && v[DIRECTIVE] !== null ? DROP : newMap(v);
}

/** `newValue` of a map's fields, leaving out `skip`. */
export function newMap(m: JsonMap, skip?: string): JsonMap {
  const out: JsonMap = {};
  for (const [key, value] of Object.entries(m)) {
    if (value === null || key === skip || isDirectiveKey(key)) continue;
    const kept = newValue(value);
    if (kept !== DROP) setOwnField(out, key, kept);
  }
  return out;
}

function isDirectiveKey(key: string): boolean {
  return key === RETAIN_KEYS || key.startsWith(ORDER_PREFIX) || key.startsWith(DELETE_PREFIX);
}

/** The common kind of the items of lists merged together (kube's sliceElementType). */
export function elementKind(lists: unknown[][]): string {
  let kind: string | undefined;
  for (const list of lists) {
    for (const item of list) {
      const k = kindOf(item);
      if (kind === undefined) {
        if (k === 'list') throw smpErrors.listOfLists();
        kind = k;
      } else if (k !== kind) {
        throw smpErrors.badRequest(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (kind === undefined) throw smpErrors.badRequest('no elements in any of the given slices');
  return kind;
}

export function asList(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw smpErrors.badArgType('list', v);
  return v;
}

export function asMap(v: unknown): JsonMap {
  if (!isMap(v)) throw smpErrors.badArgType('map', v);
  return v;
}
