import type { RequestScope } from './request-scope.js';
import { readDeleteOptions } from './delete-options.js';
import { selectorFilter } from './read-options.js';
import { respondList } from './respond.js';
import { admitDelete } from './delete-handler.js';
import { ApiError } from '../contracts/api-error.js';
import type { KubeObject } from '../contracts/resource-type.js';

/** DELETE of a collection: every object matching the selectors; answers the list of what was deleted. */
export async function handleDeleteCollection(scope: RequestScope, maxBodyBytes: number): Promise<void> {
  const opts = await readDeleteOptions(scope.ctx, scope.query, maxBodyBytes, scope.codecs);
  const list = await scope.store.list(scope.info.namespace, { filter: selectorFilter(scope) });
  const deleted: KubeObject[] = [];
  for (const item of list.items) {
    const meta = item.metadata!;
    try {
      await admitDelete(scope, opts, meta.name!, meta.namespace ?? '');
      const res = await scope.store.delete(meta.namespace ?? '', meta.name!, {}, { dryRun: opts.dryRun });
      deleted.push(res.object);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err; // already gone: fine
    }
  }
  return respondList(scope, { items: deleted, resourceVersion: list.resourceVersion });
}
