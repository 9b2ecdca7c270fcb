import type { RequestScope } from './request-scope.js';
import { minimumRevision, parseResourceVersion } from './read-options.js';
import { respondObject } from './respond.js';

/** GET of one object: the latest state, or at least `resourceVersion`. */
export async function handleGet(scope: RequestScope): Promise<void> {
  await minimumRevision(scope, parseResourceVersion(scope.query.get('resourceVersion')));
  const obj = await scope.store.get(scope.info.namespace, scope.info.name);
  respondObject(scope, 200, obj);
}
