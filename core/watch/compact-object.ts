import type { KubeObject } from '../contracts/resource-type.js';

/**
 * The leaf of every fieldsV1 (`{}`: a field without children, and `.`), one frozen object for all of them: JSON.parse
 * gives each its own 56-byte object, and an object's managedFields hold one per field a manager set. fieldsV1 of a
 * cached object are never changed (the field manager decodes them into its own sets; core/ssa/fields-v1.ts).
 */
const emptyFields = Object.freeze({});

/**
 * Whole fieldsV1 trees shared between cached objects, by their JSON: objects written alike (by the same manager, with
 * the same fields) have equal trees. At most this many, and this much JSON as keys (then it starts again).
 */
const sharedTreesMax = 1024;
const sharedTreesJsonMax = 1 << 20;
const sharedTrees = new Map<string, Record<string, unknown>>();
let sharedTreesJson = 0;

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
 * time) become one shared string, and each fieldsV1 a frozen tree shared with the objects that have an equal one.
 * Only for a freshly decoded object that nobody else holds yet; like every cached object it must not be mutated
 * afterwards.
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
    if (isPlainObject(entry['fieldsV1'])) entry['fieldsV1'] = sharedTree(entry['fieldsV1']);
  }
  return obj;
}

/** The shared tree equal to `fields`, which becomes it (frozen, with shared leaves) when there is none yet. */
function sharedTree(fields: Record<string, unknown>): Record<string, unknown> {
  const json = JSON.stringify(fields);
  const known = sharedTrees.get(json);
  if (known) return known;
  if (sharedTrees.size >= sharedTreesMax || sharedTreesJson + json.length > sharedTreesJsonMax) {
    sharedTrees.clear();
    sharedTreesJson = 0;
  }
  sharedTrees.set(json, frozenTree(fields));
  sharedTreesJson += json.length;
  return fields;
}

/** Freezes `fields` and every object under it, replacing the empty ones with the shared leaf. */
function frozenTree(fields: Record<string, unknown>): Record<string, unknown> {
  for (const key in fields) {
    if (key === '__proto__') continue; // an own key from JSON.parse; assigning it would set the prototype
    const value = fields[key];
    if (isPlainObject(value)) fields[key] = isEmpty(value) ? emptyFields : frozenTree(value);
  }
  return Object.freeze(fields);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmpty(o: Record<string, unknown>): boolean {
  for (const _ in o) return false;
  return true;
}
