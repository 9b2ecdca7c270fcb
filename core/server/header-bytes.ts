import type { Context, Next } from 'koa';
import type { ServerResponse } from 'node:http';

/**
 * Header values that carry raw bytes, one Latin-1 character a byte (the UTF-8 text of a `Warning` header, as kube
 * sends it: see core/handlers/warning-header.ts), reach the client intact only when Node writes the header block as
 * Latin-1. Over HTTP/1.1 Node writes it in the encoding of the first body chunk when that chunk is a string (UTF-8
 * for koa's string bodies, and for `flushHeaders()`), as Latin-1 when it is a Buffer. HTTP/2 always writes Latin-1.
 */
const HIGH_BYTE = /[\u0080-\u00ff]/;

function hasByteHeaders(res: ServerResponse): boolean {
  // Header by header: getHeaders() would copy them all on every response.
  for (const name of res.getHeaderNames()) {
    const v = res.getHeader(name);
    if (Array.isArray(v) ? v.some((x) => HIGH_BYTE.test(x)) : HIGH_BYTE.test(String(v))) return true;
  }
  return false;
}

/** Middleware: a string body goes out as a Buffer when some header holds such bytes, so the header block is Latin-1. */
export async function headerBytesAsLatin1(ctx: Context, next: Next): Promise<void> {
  await next();
  if (typeof ctx.body === 'string' && hasByteHeaders(ctx.res)) ctx.body = Buffer.from(ctx.body, 'utf8');
}

/** Sends a streamed response's headers now, as Latin-1 (`flushHeaders()` would write them as UTF-8). */
export function sendHeaders(res: ServerResponse): void {
  res.write(Buffer.alloc(0));
}
