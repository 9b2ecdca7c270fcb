import type { ResourceScope } from '../request-scope.js';
import type { RestContext, RestStorage } from '../../contracts/rest-storage.js';
import { addWarnings } from '../warnings.js';

/** A request to a resource (or subresource) served by its own RestStorage. */
export interface StorageScope extends ResourceScope {
  /** The storage addressed: the resource's, or its subresource's. */
  storage: RestStorage;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** How often watches that allow bookmarks get one (ServerConfig.watchCache.bookmarkIntervalMs). */
  bookmarkIntervalMs: number;
}

/** The context a storage call gets for this request. */
export function restContext(scope: StorageScope, dryRun: boolean): RestContext {
  return {
    namespace: scope.info.namespace,
    name: scope.info.nameSelected ? '' : scope.info.name, // a list or watch selecting a name is still of the collection
    user: scope.user,
    signal: scope.signal,
    dryRun,
    warn: (text) => addWarnings(scope.ctx, [text]),
  };
}
