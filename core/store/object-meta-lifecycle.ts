import { randomUUID, randomInt } from 'node:crypto';
import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { isDeepStrictEqual } from 'node:util';

// The alphabet of k8s.io/apimachinery/pkg/util/rand: no vowels (no words), no confusable characters.
const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const generatedSuffixLength = 5;
const maxGeneratedNameLength = 63;

/** `generateName` + 5 random characters, truncating the prefix as kube does so the name stays within 63 chars. */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < generatedSuffixLength; i++) suffix += nameAlphabet[randomInt(nameAlphabet.length)];
  const room = maxGeneratedNameLength - generatedSuffixLength;
  return (prefix.length > room ? prefix.slice(0, room) : prefix) + suffix;
}

function hasStatusSubresource(rt: ResourceType, version: string): boolean {
  return Boolean(rt.versions.find((v) => v.name === version)?.subresources?.status);
}

/**
 * Fills the system-owned metadata of a new object (like rest.BeforeCreate): uid, creationTimestamp, generation,
 * namespace from the URL; clears what clients may not set. Status is dropped when it has its own subresource.
 */
export function prepareForCreate(obj: KubeObject, rt: ResourceType, version: string, namespace: string): void {
  const meta = (obj.metadata ??= {});
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  if (rt.scope === 'Namespaced') meta.namespace = namespace;
  else delete meta.namespace;
  meta.uid = randomUUID();
  meta.creationTimestamp = formatDateRFC3339(new Date());
  if (!rt.withoutGeneration) meta.generation = 1;
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (hasStatusSubresource(rt, version)) delete obj.status;
  for (const f of rt.strategy?.defaultFinalizers ?? []) {
    if (!meta.finalizers?.includes(f)) (meta.finalizers ??= []).push(f);
  }
  rt.strategy?.prepareForCreate?.(obj);
  dropEmptyMetadata(meta);
}

/**
 * ObjectMeta's maps and lists are `omitempty` in Go: kube stores no empty labels, annotations, finalizers, …
 * (managedFields are left to the field manager: an empty list there is a reset request).
 */
const omitEmptyMetadata = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

function dropEmptyMetadata(meta: NonNullable<KubeObject['metadata']>): void {
  for (const field of omitEmptyMetadata) {
    const value: unknown = meta[field];
    if (value !== null && typeof value === 'object' && Object.keys(value).length === 0) delete meta[field];
  }
}

/**
 * Carries system-owned metadata over from the stored object (like rest.BeforeUpdate), applies the status-subresource
 * split, and bumps generation when the object's spec-like content changed.
 */
export function prepareForUpdate(obj: KubeObject, old: KubeObject, rt: ResourceType, version: string, subresource: string): KubeObject {
  const statusSplit = hasStatusSubresource(rt, version);
  let next = obj;
  if (subresource === 'status') {
    // Only .status (and labels/annotations kept from the old object) change through /status.
    next = { ...old, status: obj.status, metadata: { ...old.metadata, resourceVersion: obj.metadata?.resourceVersion } };
    rt.strategy?.prepareForStatusUpdate?.(next, old);
  } else if (statusSplit) {
    if (old.status === undefined) delete next.status;
    else next.status = old.status;
  }
  const meta = (next.metadata ??= {});
  const oldMeta = old.metadata!;
  meta.generation = oldMeta.generation;
  meta.uid ||= oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) {
    meta.deletionTimestamp = oldMeta.deletionTimestamp;
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  if (subresource === 'finalize') rt.strategy?.prepareForFinalizeUpdate?.(next, old);
  else if (subresource !== 'status') rt.strategy?.prepareForUpdate?.(next, old);
  dropEmptyMetadata(meta);
  if (!rt.withoutGeneration && specChanged(next, old, statusSplit)) meta.generation = (oldMeta.generation ?? 0) + 1;
  return next;
}

/** Non-metadata content differs (status excluded when it is a subresource). */
function specChanged(a: KubeObject, b: KubeObject, ignoreStatus: boolean): boolean {
  const strip = (o: KubeObject) => {
    const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = o;
    if (ignoreStatus) delete rest.status;
    return rest;
  };
  return !isDeepStrictEqual(strip(a), strip(b));
}
