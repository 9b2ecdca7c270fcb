/**
 * Client-side to server-side apply migration for the `kubectl` manager (fieldmanager lastAppliedManager and
 * lastAppliedUpdater): conflicts on fields the kubectl.kubernetes.io/last-applied-configuration annotation still
 * describes (same value live) are forced, and an apply keeps an existing annotation up to date.
 */
import { goJSON } from '../../lib/go/go-values.js';
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { compareObjects } from './compare.js';
import type { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { toFieldSet } from '../../schemas/structured-merge/to-field-set.js';
import { isObject, type JsonObject } from '../../schemas/structured-merge/json-value.js';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const KUBECTL = 'kubectl';
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

function annotations(o: JsonObject): Record<string, unknown> | undefined {
  const metadata = o.metadata;
  const a = isObject(metadata) ? metadata.annotations : undefined;
  return isObject(a) ? a : undefined;
}

/** Whether the conflicts of an apply by `manager` may be resolved from the last-applied annotation (kubectl's only). */
export function migratesFromClientSideApply(manager: string): boolean {
  return manager === KUBECTL;
}

/**
 * The fields the annotation of `live` shows the client-side applier set, and still with the same value; undefined
 * when there is no usable annotation (then the conflicts stand).
 */
export function lastAppliedFields(live: JsonObject, model: MergeModel, apiVersion: string): FieldSet | undefined {
  const text = annotations(live)?.[LAST_APPLIED];
  if (typeof text !== 'string' || !text) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(last) || last.apiVersion !== apiVersion) return undefined;
  try {
    const set = toFieldSet(last, model, true);
    const c = compareObjects(last, live, model);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}

/**
 * After an apply by kubectl, an object that has the annotation gets it rewritten from the applied configuration
 * (without the annotation itself), as JSON with sorted keys and a final newline; it is dropped when the
 * annotations would exceed 256 KiB. Returns the object (a copy when changed).
 */
export function updateLastApplied(result: JsonObject, applied: JsonObject, manager: string): JsonObject {
  const current = annotations(result);
  if (manager !== KUBECTL || typeof current?.[LAST_APPLIED] !== 'string' || !current[LAST_APPLIED]) return result;
  const value = goJSON(withoutAnnotation(applied)) + '\n';
  const next: Record<string, unknown> = { ...current, [LAST_APPLIED]: value };
  if (annotationBytes(next) > MAX_ANNOTATIONS_BYTES) delete next[LAST_APPLIED];
  return { ...result, metadata: { ...(result.metadata as JsonObject), annotations: next } };
}

function withoutAnnotation(applied: JsonObject): JsonObject {
  const a = annotations(applied);
  if (!a || !(LAST_APPLIED in a)) return applied;
  const { [LAST_APPLIED]: _, ...rest } = a;
  return { ...applied, metadata: { ...(applied.metadata as JsonObject), annotations: rest } };
}

function annotationBytes(a: Record<string, unknown>): number {
  let n = 0;
  for (const [k, v] of Object.entries(a)) n += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  return n;
}
