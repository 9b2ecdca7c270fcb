/**
 * kube-apiserver's IgnoreManagedFieldsTimestampsTransformer: a write whose object, managedFields included, equals the
 * stored object except for managedFields times gets the stored times back, so that it is a no-op for storage (no
 * resourceVersion bump) instead of a change of timestamps only. Kube runs it in the store's update, after the
 * strategy's PrepareForUpdate and before validation.
 */
import type { KubeObject } from '../contracts/resource-type.js';
import { isObject, valuesEqual, type JsonObject } from '../../schemas/structured-merge/json-value.js';

/** Returns `next`, with the old entries' times restored (in place) when the write changes nothing else. */
export function keepTimesOfNoopWrite(next: KubeObject, old: KubeObject): KubeObject {
  const nextMeta = next.metadata as JsonObject | undefined;
  const oldMeta = old.metadata as JsonObject | undefined;
  const entries = nextMeta?.managedFields;
  const oldEntries = oldMeta?.managedFields;
  if (!Array.isArray(entries) || !Array.isArray(oldEntries) || entries.length !== oldEntries.length || entries.length === 0) return next;
  const time = (e: unknown) => (isObject(e) ? e.time : undefined);
  if (entries.every((e, i) => time(e) === time(oldEntries[i]))) return next;
  if (!entries.every((e, i) => isObject(e) && isObject(oldEntries[i]) && valuesEqual({ ...e, time: undefined }, { ...oldEntries[i], time: undefined }))) return next;
  const { managedFields: _n, ...restNext } = nextMeta!;
  const { managedFields: _o, ...restOld } = oldMeta!;
  if (!valuesEqual({ ...next, metadata: restNext }, { ...old, metadata: restOld })) return next;
  nextMeta!.managedFields = [...oldEntries];
  return next;
}
