import type { RequestScope } from './request-scope.js';
import type { ListResult } from '../store/resource-store.js';
import { errors } from '../contracts/api-error.js';
import { selectorFilter } from './read-options.js';
import { respondList } from './respond.js';
import { parseListOptions } from './list-options.js';
import { cacheIsConsistent, listFromCache, rejectUnreachable, waitForCache } from './cached-reads.js';

/**
 * LIST of a collection with kube's resourceVersion semantics (api-concepts "Resource versions"):
 * - continue token, or an exact revision (resourceVersionMatch=Exact, or legacy rv=N with limit): storage at that revision;
 * - rv=0 ("any"): the watch cache, limit ignored;
 * - rv=N ("not older than"): once the cache has reached N, the cache (storage at its latest when paging);
 * - unset ("most recent"): the cache once it has caught up with storage (storage when paging).
 */
export async function handleList(scope: RequestScope): Promise<void> {
  const o = parseListOptions(scope.query, false);
  const filter = selectorFilter(scope);
  const rv = o.resourceVersion;
  const paging = o.limit !== undefined && o.limit > 0;
  const fromStorage = (revision?: number): Promise<ListResult> =>
    scope.store.list(scope.info.namespace, { limit: o.limit, continueToken: o.continueToken || undefined, revision, filter });

  let list: ListResult;
  if (o.continueToken) {
    if (rv !== undefined && rv !== 0) throw errors.badRequest('specifying resource version is not allowed when using continue');
    list = await fromStorage();
  } else if (rv !== undefined && rv > 0 && (o.resourceVersionMatch === 'Exact' || (!o.resourceVersionMatch && paging))) {
    rejectUnreachable(scope, rv);
    list = await fromStorage(rv);
  } else if (rv !== undefined) {
    await waitForCache(scope, rv);
    list = paging && rv > 0 ? await fromStorage() : listFromCache(scope, filter);
  } else if (!paging && (await cacheIsConsistent(scope))) {
    list = listFromCache(scope, filter);
  } else {
    list = await fromStorage();
  }
  return respondList(scope, list);
}
