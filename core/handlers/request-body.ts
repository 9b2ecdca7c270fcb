import type { Context } from 'koa';
import { errors } from '../contracts/api-error.js';
import { decodeBody } from '../contracts/body-decoding.js';
import type { CodecSet } from '../codec/codec-set.js';
import type { TypeMeta } from '../contracts/codec.js';

/** Reads the raw request body, refusing more than `maxBytes` with 413 without buffering the rest. */
export async function readRawBody(ctx: Context, maxBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > maxBytes) throw tooLarge(ctx, maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge(ctx, maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The 413, sent before the connection is closed so the rest of the body is never read. */
function tooLarge(ctx: Context, maxBytes: number) {
  ctx.set('Connection', 'close');
  ctx.req.pause();
  ctx.res.once('finish', () => ctx.req.destroy());
  return errors.tooLarge(`Request entity too large: limit is ${maxBytes}`);
}

export interface ObjectBody {
  object: Record<string, unknown>;
  /** Paths of keys the body repeats within one object (kube's strict decoding reports them), for formats that can. */
  duplicates: string[];
}

/** Reads and decodes a body that must be one object (create/update) with the codec its Content-Type names (415 if none). */
export async function readObjectBody(ctx: Context, maxBytes: number, codecs: CodecSet, expected: TypeMeta): Promise<ObjectBody> {
  const codec = codecs.forBody(ctx.get('content-type'));
  const raw = await readRawBody(ctx, maxBytes);
  const value = decodeBody(codec, raw, expected);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest('the object provided is unrecognized or malformed: expected a JSON object');
  }
  return { object: value as Record<string, unknown>, duplicates: codec.duplicateFields?.(raw) ?? [] };
}
