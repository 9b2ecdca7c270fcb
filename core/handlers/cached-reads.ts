import type { RequestScope } from './request-scope.js';
import type { KubeObject } from '../contracts/resource-type.js';
import type { ListResult } from '../store/resource-store.js';
import { errors } from '../contracts/api-error.js';
import { collectionPrefix, objectKey } from '../store/keys.js';
import { requestedResourceVersion } from './read-options.js';

/**
 * Reads served by the resource's watch cache, and the waits that make them correct: a "not older than N" read waits
 * (briefly) for the cache to reach N, a "most recent" read waits for it to catch up with storage's current revision.
 */

/** Waits until the cache reflects `revision`; after the configured wait, 504 "Too large resource version". */
export async function waitForCache(scope: RequestScope, revision: number): Promise<void> {
  rejectUnreachable(scope, revision);
  await scope.cache.start();
  if (!(await scope.cache.waitForRevision(revision, scope.watchConfig.waitForResourceVersionMs))) {
    throw errors.tooLargeResourceVersion(revision, scope.cache.revision);
  }
}

/** 504 "Too large resource version" at once for a revision no store reaches (Infinity: see parseResourceVersion). */
export function rejectUnreachable(scope: RequestScope, revision: number): void {
  if (revision === Infinity) throw errors.tooLargeResourceVersion(requestedResourceVersion(scope.query), scope.cache.revision);
}

/**
 * For a consistent ("most recent") read: true once the cache has caught up with the revision storage is at now, so
 * that it holds every write acknowledged before the request; false (read storage instead) if it cannot in time.
 */
export async function cacheIsConsistent(scope: RequestScope): Promise<boolean> {
  if (!scope.cache.isReady) return false;
  const current = await scope.store.currentRevision();
  return scope.cache.waitForRevision(current, scope.watchConfig.waitForResourceVersionMs);
}

/** The collection from the cache (shared objects: respond copies before changing them). */
export function listFromCache(scope: RequestScope, filter?: (obj: KubeObject) => boolean): ListResult {
  const { items, revision } = scope.cache.list(collectionPrefix(scope.rt, scope.info.namespace));
  return { items: filter ? items.filter(filter) : items, resourceVersion: String(revision) };
}

/** One object from the cache; 404 when it is not there. */
export function getFromCache(scope: RequestScope): KubeObject {
  const obj = scope.cache.get(objectKey(scope.rt, scope.info.namespace, scope.info.name));
  if (!obj) throw errors.notFound({ group: scope.rt.group, resource: scope.rt.names.plural, name: scope.info.name });
  return obj;
}
