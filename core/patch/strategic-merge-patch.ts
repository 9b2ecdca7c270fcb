import { applyMergePatch } from './merge-patch.js';

/** Lists of ObjectMeta that strategic merge patch merges instead of replacing (patchStrategy: merge). */
const mergeStrategyLists = new Set(['metadata.finalizers', 'metadata.ownerReferences']);

/**
 * The part of strategic merge patch that kapi serves so far: a patch without `$` directives that does not touch a
 * list with a merge strategy means exactly what a JSON merge patch means (maps merge, null deletes, lists replace).
 * That covers what `kubectl apply` sends for label, annotation and field changes of built-in kinds. Returns
 * undefined for any other patch (directives, merge-strategy lists), which the caller refuses.
 */
export function applySimpleStrategicMergePatch(doc: unknown, patch: Record<string, unknown>): unknown | undefined {
  return isSimple(patch, '') ? applyMergePatch(doc, patch) : undefined;
}

function isSimple(value: unknown, path: string): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (key.startsWith('$') || mergeStrategyLists.has(childPath)) return false;
    if (!isSimple(child, childPath)) return false;
  }
  return true;
}
