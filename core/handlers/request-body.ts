import type { Context } from 'koa';
import { errors } from '../errors/api-error.js';
import { baseMediaType, decodeBody } from '../codec/body-decoder.js';
import type { BodyCodec } from '../codec/body-codec.js';
import { duplicateFields } from '../codec/duplicate-fields.js';

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

const objectMediaTypes = ['application/json', 'application/yaml'];

export interface ObjectBody {
  object: Record<string, unknown>;
  /** Paths of keys a JSON body repeats within one object (kube's strict decoding reports them). */
  duplicates: string[];
}

/** Reads and parses a body that must be one object (create/update), in JSON, YAML or a codec plugin's format. */
export async function readObjectBody(
  ctx: Context,
  maxBytes: number,
  codecs: BodyCodec[],
  expected: { apiVersion: string; kind: string },
): Promise<ObjectBody> {
  const mediaType = baseMediaType(ctx.get('content-type'));
  const codec = codecs.find((c) => c.mediaTypes.includes(mediaType));
  if (mediaType && !codec && !objectMediaTypes.includes(mediaType)) {
    throw errors.unsupportedMediaType([...objectMediaTypes, ...codecs.flatMap((c) => c.mediaTypes)]);
  }
  const raw = await readRawBody(ctx, maxBytes);
  const value = codec ? codec.decode(raw, expected) : decodeBody(raw, mediaType || 'application/json');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest('the object provided is unrecognized or malformed: expected a JSON object');
  }
  const json = !codec && !mediaType.endsWith('yaml');
  return { object: value as Record<string, unknown>, duplicates: json ? duplicateFields(raw.toString('utf8')) : [] };
}
