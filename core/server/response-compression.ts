import type { Context, Next } from 'koa';
import { constants, createGzip, gzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';

const gzipAsync = promisify(gzip);

/** kube-apiserver (responsewriters) compresses only bodies larger than this: small ones gain little for the CPU spent. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/**
 * Level 1, as kube-apiserver uses since kubernetes#112296: much less CPU than the default level for output at most
 * ~1.1-1.3x larger, which keeps large lists fast to serve.
 */
const GZIP_LEVEL = constants.Z_BEST_SPEED;

/**
 * APIResponseCompression: a buffered response (objects, lists, Status errors, discovery, OpenAPI) larger than 128 KiB is
 * gzipped when the client accepts gzip, with `Content-Encoding: gzip` and `Vary: Accept-Encoding`, and so is a large list
 * written piece by piece. Streams the handler writes itself (watch, `ctx.respond = false`) are left alone. koa sets
 * Content-Length from the final buffered body.
 */
export async function compressResponses(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.respond === false || ctx.response.get('Content-Encoding')) return;
  const body: unknown = ctx.body;
  if (body instanceof Readable) {
    // A list written piece by piece (see core/handlers/paced-body.ts): always large, compressed as it streams.
    if (!acceptsGzip(ctx.get('Accept-Encoding'))) return;
    ctx.body = body.pipe(createGzip({ level: GZIP_LEVEL }));
    ctx.set('Content-Encoding', 'gzip');
    ctx.vary('Accept-Encoding');
    return;
  }
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (size <= GZIP_THRESHOLD_BYTES || !acceptsGzip(ctx.get('Accept-Encoding'))) return;
  // Async: zlib runs on the thread pool, so one large list does not stall every other request.
  const compressed = await gzipAsync(body, { level: GZIP_LEVEL });
  ctx.body = compressed; // Content-Type is already set, so koa keeps it; Content-Length becomes the compressed size.
  ctx.set('Content-Encoding', 'gzip');
  ctx.vary('Accept-Encoding');
}

/**
 * Whether Accept-Encoding lists gzip. kube matches the bare token `gzip`; a `gzip;q=…` with a non-zero q is honoured
 * too, and `gzip;q=0` (explicitly refused) is not.
 */
export function acceptsGzip(header: string): boolean {
  for (const token of header.split(',')) {
    const [coding, ...params] = token.split(';').map((s) => s.trim());
    if (coding?.toLowerCase() !== 'gzip') continue;
    const q = params.find((p) => /^q=/i.test(p));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
