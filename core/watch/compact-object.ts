import type { KubeObject } from '../contracts/resource-type.js';

/**
 * The leaf of every fieldsV1 (`{}`: a field without children, and `.`), one frozen object for all of them: JSON.parse
 * gives each its own 56-byte object, and an object's managedFields hold one per field a manager set. fieldsV1 of a
 * cached object are never changed (the field manager decodes them into its own sets; core/ssa/fields-v1.ts).
 */
const emptyFields = Object.freeze({});

/** Strings shared between cached objects, at most this many (then it starts again): enough for a burst of writes. */
const sharedStringsMax = 4096;
const sharedStrings = new Map<string, string>();

/** The one copy of `s` kept for cached objects (equal values that many objects repeat: API versions, managers, times). */
function shared(s: unknown): unknown {
  if (typeof s !== 'string') return s;
  const known = sharedStrings.get(s);
  if (known !== undefined) return known;
  if (sharedStrings.size >= sharedStringsMax) sharedStrings.clear();
  sharedStrings.set(s, s);
  return s;
}

/**
 * Makes an object the watch cache is about to keep smaller in memory, in place and without changing what it encodes
 * to: values that objects repeat (apiVersion, creationTimestamp, each managedFields entry's manager, apiVersion and
 * time) become one shared string, and fieldsV1 leaves one shared frozen `{}`. Only for a freshly decoded object that
 * nobody else holds yet; like every cached object it must not be mutated afterwards.
 */
export function compactForCache(obj: KubeObject): KubeObject {
  if (typeof obj.apiVersion === 'string') obj.apiVersion = shared(obj.apiVersion) as string;
  const meta = obj.metadata;
  if (!meta) return obj;
  if (typeof meta.creationTimestamp === 'string') meta.creationTimestamp = shared(meta.creationTimestamp) as string;
  const entries = meta.managedFields as unknown;
  if (!Array.isArray(entries)) return obj;
  for (const entry of entries as unknown[]) {
    if (!isPlainObject(entry)) continue;
    if (typeof entry['manager'] === 'string') entry['manager'] = shared(entry['manager']);
    if (typeof entry['apiVersion'] === 'string') entry['apiVersion'] = shared(entry['apiVersion']);
    if (typeof entry['time'] === 'string') entry['time'] = shared(entry['time']);
    if (isPlainObject(entry['fieldsV1'])) shareEmptyLeaves(entry['fieldsV1']);
  }
  return obj;
}

/** Replaces every empty object under `fields` with the shared one. */
function shareEmptyLeaves(fields: Record<string, unknown>): void {
  for (const key in fields) {
    if (key === '__proto__') continue; // an own key from JSON.parse; assigning it would set the prototype
    const value = fields[key];
    if (!isPlainObject(value)) continue;
    if (isEmpty(value)) fields[key] = emptyFields;
    else shareEmptyLeaves(value);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmpty(o: Record<string, unknown>): boolean {
  for (const _ in o) return false;
  return true;
}
