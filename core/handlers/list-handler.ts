import type { RequestScope } from './request-scope.js';
import { errors } from '../errors/api-error.js';
import { parseIntParam } from './query-options.js';
import { minimumRevision, parseResourceVersion, selectorFilter } from './read-options.js';
import { respondList } from './respond.js';

/** LIST of a collection, with selectors, paging (limit/continue) and resourceVersion semantics. */
export async function handleList(scope: RequestScope): Promise<void> {
  const q = scope.query;
  const rv = parseResourceVersion(q.get('resourceVersion'));
  const match = q.get('resourceVersionMatch') ?? '';
  const continueToken = q.get('continue') ?? '';
  const limit = parseIntParam(q, 'limit');
  if (match && match !== 'Exact' && match !== 'NotOlderThan') {
    throw errors.badRequest(`resourceVersionMatch: Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan"`);
  }
  if (match && rv === undefined) throw errors.badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (continueToken && match) throw errors.badRequest('resourceVersionMatch is forbidden when continue is provided');
  if (continueToken && rv !== undefined && rv !== 0) throw errors.badRequest('specifying resource version is not allowed when using continue');
  if (match === 'Exact' && rv === 0) throw errors.badRequest('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');

  // Exact, or legacy "rv=N with limit", reads the collection as it was at N; otherwise N is a lower bound.
  const exact = match === 'Exact' || (!match && rv !== undefined && rv > 0 && limit !== undefined && limit > 0);
  if (!exact) await minimumRevision(scope, rv);
  const list = await scope.store.list(scope.info.namespace, {
    limit,
    continueToken: continueToken || undefined,
    revision: exact ? rv : undefined,
    filter: selectorFilter(scope),
  });
  respondList(scope, list);
}
