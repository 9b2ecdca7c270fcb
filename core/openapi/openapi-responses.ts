import type { Readable } from 'node:stream';
import type { RouteContext } from '../contracts/route.js';
import { pacedBody } from '../handlers/paced-body.js';
import { ifNoneMatch } from '../../lib/k8s/content-hash.js';
import type { SerializedDocument } from './openapi-documents.js';
import type { OpenApiIndex } from './openapi-cache.js';
import type { OpenApiEncoding } from './openapi-encodings.js';
import { negotiateOpenApi } from './openapi-encodings.js';

/**
 * GET /openapi/v2, as kube-openapi answers it: JSON or gnostic protobuf as Accept asks, with the JSON's ETag for both
 * (the answer varies by Accept), 304 when the client has it, 406 when it accepts neither.
 */
export async function respondSwagger(ctx: RouteContext, doc: () => Promise<SerializedDocument>): Promise<void> {
  ctx.append('Vary', 'Accept');
  const encoding = negotiateOpenApi(ctx.get('Accept'), 'v2');
  if (!encoding) return empty(ctx, 406);
  await respondDocument(ctx, await doc(), encoding);
}

/**
 * GET /openapi/v3, as kube-openapi serves the index (through Go's http.ServeContent): with its ETag and Last-Modified,
 * and 304 (with the ETag only) when If-None-Match names the ETag or, without If-None-Match, If-Modified-Since is not
 * older than the index.
 */
export function respondIndex(ctx: RouteContext, index: OpenApiIndex): void {
  const etag = `"${index.hash}"`;
  ctx.set('ETag', etag);
  const ifNoneMatchHeader = ctx.get('If-None-Match');
  const modifiedSince = Date.parse(ctx.get('If-Modified-Since'));
  const lastModifiedSeconds = Math.floor(index.lastModified.getTime() / 1000);
  if (ifNoneMatchHeader ? ifNoneMatch(ifNoneMatchHeader, etag) : lastModifiedSeconds <= Math.floor(modifiedSince / 1000)) {
    ctx.status = 304;
    return;
  }
  ctx.set('Last-Modified', index.lastModified.toUTCString());
  ctx.set('Content-Type', 'application/json');
  ctx.status = 200;
  ctx.body = index.json;
}

/**
 * GET /openapi/v3/<group-version>, as kube-apiserver answers it: 406 when Accept takes neither JSON nor protobuf, 404
 * for an unknown group-version, a 301 to the current URL when `?hash=` is stale, and with the current hash a response
 * clients may cache forever.
 */
export async function respondGroupVersion(ctx: RouteContext, groupVersion: (key: string) => SerializedDocument | undefined): Promise<void> {
  const key = ctx.path.slice('/openapi/v3/'.length);
  ctx.append('Vary', 'Accept');
  const encoding = negotiateOpenApi(ctx.get('Accept'), 'v3');
  if (!encoding) return empty(ctx, 406);
  const doc = groupVersion(key);
  if (!doc) return empty(ctx, 404);
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
  await respondDocument(ctx, doc, encoding);
}

async function respondDocument(ctx: RouteContext, doc: SerializedDocument, encoding: OpenApiEncoding): Promise<void> {
  const etag = `"${doc.hash}"`;
  ctx.set('ETag', etag);
  ctx.set('Content-Type', encoding.contentType);
  if (ifNoneMatch(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.body = documentBody(encoding.encoding === 'json' ? doc.parts : [await doc.protobuf()]);
}

/** Documents from this size on are written in pieces, with the event loop free in between. */
const pacedFrom = 1024 * 1024;
const pieceLength = 256 * 1024;

/**
 * A large document (the Swagger document of thousands of CRDs is tens of MiB) as a paced body: written, and encrypted
 * by TLS, in one go it would hold the event loop for tens of milliseconds.
 */
function documentBody(parts: readonly (string | Buffer)[]): string | Buffer | Readable {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  if (length >= pacedFrom) return pacedBody(pieces(parts));
  return parts.length === 1 ? parts[0]! : parts.join('');
}

/** The parts in pieces of at most ~256 Ki (a part never ends within a surrogate pair). */
function* pieces(parts: readonly (string | Buffer)[]): Generator<string | Buffer> {
  for (const body of parts) yield* piecesOf(body);
}

function* piecesOf(body: string | Buffer): Generator<string | Buffer> {
  for (let at = 0; at < body.length; ) {
    let end = Math.min(at + pieceLength, body.length);
    // never between the two halves of a surrogate pair: each half alone would be written as U+FFFD
    if (typeof body === 'string' && end < body.length && isHighSurrogate(body.charCodeAt(end - 1))) end++;
    yield typeof body === 'string' ? body.slice(at, end) : body.subarray(at, end);
    at = end;
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** A status without a body (kube-openapi writes only the status line for these). */
function empty(ctx: RouteContext, status: number): void {
  ctx.body = null;
  ctx.status = status;
}
