import type { Context } from 'koa';
import { ifNoneMatch } from '../discovery/content-hash.js';
import { acceptsJson } from './accepts-json.js';
import type { OpenApiV3Documents, SerializedDocument } from './openapi-documents.js';

/** GET /openapi/v2, as kube-openapi answers it: JSON with an ETag, 304 when the client has it, 406 for other types. */
export function respondSwagger(ctx: Context, doc: SerializedDocument): void {
  ctx.append('Vary', 'Accept');
  if (!acceptsJson(ctx.get('Accept'))) return empty(ctx, 406);
  respondJson(ctx, doc);
}

/**
 * GET /openapi/v3/<group-version>, as kube-apiserver answers it: 404 for an unknown group-version, a 301 to the current
 * URL when `?hash=` is stale, and with the current hash a response clients may cache forever.
 */
export function respondGroupVersion(ctx: Context, docs: OpenApiV3Documents): void {
  const key = ctx.path.slice('/openapi/v3/'.length);
  const doc = docs.groupVersions.get(key);
  if (!doc) return empty(ctx, 404);
  ctx.append('Vary', 'Accept');
  if (!acceptsJson(ctx.get('Accept'))) return empty(ctx, 406);
  const hash = new URLSearchParams(ctx.querystring).get('hash');
  if (hash) {
    if (hash !== doc.hash) {
      ctx.status = 301;
      ctx.redirect(`/openapi/v3/${key}?hash=${doc.hash}`);
      return;
    }
    const expires = new Date();
    expires.setUTCFullYear(expires.getUTCFullYear() + 1);
    ctx.set('Cache-Control', 'public, immutable');
    ctx.set('Expires', expires.toUTCString());
  }
  respondJson(ctx, doc);
}

function respondJson(ctx: Context, doc: SerializedDocument): void {
  const etag = `"${doc.hash}"`;
  ctx.set('ETag', etag);
  ctx.set('Content-Type', 'application/json');
  if (ifNoneMatch(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.body = doc.json;
}

/** A status without a body (kube-openapi writes only the status line for these). */
function empty(ctx: Context, status: number): void {
  ctx.body = null;
  ctx.status = status;
}
