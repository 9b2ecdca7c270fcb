import type { RequestScope } from './request-scope.js';
import { parseResourceVersion } from './read-options.js';
import { respondObject } from './respond.js';
import { getFromCache, waitForCache } from './cached-reads.js';

/**
 * GET of one object. Without resourceVersion: the latest state, from storage (as kube reads etcd). With one: any
 * state ("0") or one not older than it, from the watch cache.
 */
export async function handleGet(scope: RequestScope): Promise<void> {
  const rv = parseResourceVersion(scope.query.get('resourceVersion'));
  if (rv === undefined) return respondObject(scope, 200, await scope.store.get(scope.info.namespace, scope.info.name));
  await waitForCache(scope, rv);
  return respondObject(scope, 200, getFromCache(scope));
}
