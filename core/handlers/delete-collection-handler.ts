import type { ResourceScope } from './request-scope.js';
import { readDeleteOptions, deleteAdmissionOptions, deletePropagation } from './delete-options.js';
import { selectorFilter } from './read-options.js';
import { respondList } from './respond.js';
import { writeRequestOf } from './write-request-of.js';
import { ApiError } from '../contracts/api-error.js';
import type { KubeObject } from '../contracts/resource-type.js';

/** DELETE of a collection: every object matching the selectors; answers the list of what was deleted. */
export async function handleDeleteCollection(scope: ResourceScope, maxBodyBytes: number): Promise<void> {
  const opts = await readDeleteOptions(scope.ctx, scope.query, maxBodyBytes, scope.codecs);
  const matches = selectorFilter(scope) ?? (() => true);
  const selection = { labelSelector: scope.query.get('labelSelector') ?? '', fieldSelector: scope.query.get('fieldSelector') ?? '', matches };
  const list = await scope.writer.select(writeRequestOf(scope, opts.dryRun), selection);
  const admissionOptions = deleteAdmissionOptions(opts);
  const propagation = deletePropagation(opts);
  const deleted: KubeObject[] = [];
  for (const item of list.items) {
    const meta = item.metadata!;
    try {
      const req = writeRequestOf(scope, opts.dryRun, { namespace: meta.namespace ?? '', name: meta.name! });
      deleted.push((await scope.writer.delete(req, { preconditions: {}, admissionOptions, propagation })).object);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err; // already gone: fine
    }
  }
  return respondList(scope, { items: deleted, resourceVersion: list.resourceVersion });
}
