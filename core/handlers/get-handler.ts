import type { RequestScope } from './request-scope.js';
import { parseResourceVersion } from './read-options.js';
import { respondObject } from './respond.js';
import { cacheIsConsistent, getFromCache, waitForCache } from './cached-reads.js';

/**
 * GET of one object. Without resourceVersion: the latest state — from the watch cache once it has caught up with
 * storage's current revision (kube's consistent reads from cache: the same answer as a storage read, without decoding
 * the stored bytes again), else from storage. With one: any state ("0") or one not older than it, from the cache.
 */
export async function handleGet(scope: RequestScope): Promise<void> {
  const rv = parseResourceVersion(scope.query.get('resourceVersion'));
  if (rv === undefined) {
    if (await cacheIsConsistent(scope)) return respondObject(scope, 200, getFromCache(scope));
    return respondObject(scope, 200, await scope.store.get(scope.info.namespace, scope.info.name));
  }
  await waitForCache(scope, rv);
  return respondObject(scope, 200, getFromCache(scope));
}
