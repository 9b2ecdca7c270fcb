import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';

/**
 * The headers kube-apiserver's outer filters put on every response, errors and 401s included: `Audit-Id` (the
 * request's own Audit-ID when it sent one, as WithAuditInit keeps it) and `Cache-Control: no-cache, private` unless the
 * handler chose another (WithCacheControl: discovery and OpenAPI documents are cacheable).
 */
export async function standardResponseHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set('Audit-Id', ctx.get('audit-id') || randomUUID());
  ctx.set('Cache-Control', 'no-cache, private');
  await next();
}
