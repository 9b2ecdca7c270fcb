import type { Context } from 'koa';
import type { RequestInfo } from '../request/request-info.js';

/** The other HTTP methods kube reports by name (the rest, e.g. OPTIONS, are reported as "other"). */
const reportedMethods = new Set(['CONNECT', 'DELETE', 'PATCH', 'POST', 'PUT']);
const applyPatchTypes = new Set(['application/apply-patch+yaml', 'application/apply-patch+cbor']);

/** kube's request scope label: "resource" for a named object or a create, else "namespace", "cluster", or "" for non-resource paths. */
export function reportedScope(info: RequestInfo): string {
  if (info.name || info.verb === 'create') return 'resource';
  if (info.namespace) return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/**
 * The verb as kube's metrics report it: the HTTP method, but LIST for a GET of a collection, WATCH for a watch and
 * APPLY for a server-side apply.
 */
export function reportedVerb(ctx: Context, info: RequestInfo, scope: string): string {
  if (info.verb === 'watch') return 'WATCH';
  const method = ctx.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return info.isResourceRequest && scope !== 'resource' ? 'LIST' : 'GET';
  if (method === 'PATCH' && applyPatchTypes.has(ctx.get('content-type').split(';')[0]!.trim().toLowerCase())) return 'APPLY';
  return reportedMethods.has(method) ? method : 'other';
}

/** kube's dry_run label: "" without dryRun, "All" with it, "invalid" for any other value. */
export function reportedDryRun(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  return values.every((v) => v === 'All') ? 'All' : 'invalid';
}
