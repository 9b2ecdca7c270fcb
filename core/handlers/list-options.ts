import { errors, fieldErrors } from '../contracts/api-error.js';
import type { StatusCause } from '../contracts/status.js';
import { parseInt64Param } from './query-options.js';
import { queryBool } from '../request/query-bool.js';
import { parseResourceVersion } from './read-options.js';

/** The query parameters of a list or watch, parsed and checked together as kube's ValidateListOptions does. */
export interface ListOptions {
  /** undefined: unset ("most recent"); 0: any; N: a revision. */
  resourceVersion?: number;
  resourceVersionMatch: '' | 'Exact' | 'NotOlderThan';
  limit?: number;
  continueToken: string;
  /** undefined when the parameter is absent (kube's *bool: an empty value is true). */
  sendInitialEvents?: boolean;
  allowWatchBookmarks: boolean;
  timeoutSeconds?: number;
}

/** Parses list/watch options; invalid combinations are 422 Invalid on ListOptions.meta.k8s.io, as in kube. */
export function parseListOptions(query: URLSearchParams, watch: boolean): ListOptions {
  const rawRv = query.get('resourceVersion') ?? '';
  const opts: ListOptions = {
    resourceVersion: parseResourceVersion(rawRv),
    resourceVersionMatch: (query.get('resourceVersionMatch') ?? '') as ListOptions['resourceVersionMatch'],
    limit: parseInt64Param(query, 'limit'),
    continueToken: query.get('continue') ?? '',
    sendInitialEvents: queryBool(query, 'sendInitialEvents'),
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks') ?? false,
    timeoutSeconds: parseInt64Param(query, 'timeoutSeconds'),
  };
  const causes = watch ? watchCauses(opts) : listCauses(opts, rawRv);
  if (causes.length > 0) throw errors.invalid({ group: 'meta.k8s.io', resource: 'ListOptions', kind: 'ListOptions', name: '' }, causes);
  return opts;
}

function listCauses(o: ListOptions, rawRv: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const match = o.resourceVersionMatch;
  if (match) {
    if (rawRv === '') causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continueToken) causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') causes.push(fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rawRv === '0') causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (o.sendInitialEvents !== undefined) causes.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return causes;
}

function watchCauses(o: ListOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  const match = o.resourceVersionMatch;
  if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    causes.push(fieldErrors.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match) {
    if (o.sendInitialEvents === undefined) {
      causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== 'NotOlderThan') causes.push(fieldErrors.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (o.continueToken) causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return causes;
}
