import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { Context } from 'koa';
import { errors } from '../contracts/api-error.js';
import { decodeBody } from '../contracts/body-decoding.js';
import type { CodecSet } from '../codec/codec-set.js';
import type { Codec, TypeMeta } from '../contracts/codec.js';
import { discardBodyThenClose, refuseRestOfStream } from '../server/lingering-close.js';
import { isHttp2 } from '../server/http2-requests.js';
import { auditRequestBody, auditRequestObject } from '../audit/request-audit.js';
import { turnShare } from '../../lib/async/turn-share.js';

/**
 * Reads the raw request body, refusing more than `maxBytes` with 413 without buffering the rest. It returns on a turn
 * of the event loop with time left for the work on the body (decoding, validation, admission): when many bodies arrive
 * together, that work is spread over turns rather than done for all of them in one.
 */
export async function readRawBody(ctx: Context, maxBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > maxBytes) throw tooLarge(ctx, maxBytes);
  const body = await readUpTo(ctx.req, maxBytes);
  if (!body) throw tooLarge(ctx, maxBytes);
  auditRequestBody(ctx, body);
  await turnShare();
  return body;
}

/**
 * The body, or undefined as soon as it passes `maxBytes` (the rest left unread). Not `for await`: leaving that loop
 * early destroys the request and with it the connection, before the 413 is sent.
 */
function readUpTo(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      stop();
      req.pause();
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
}

/**
 * The 413; over HTTP/1.1 the connection is closed after it, once the client could read it (see
 * `discardBodyThenClose`); over HTTP/2 only the request's stream ends (HTTP/2 has no Connection header).
 */
function tooLarge(ctx: Context, maxBytes: number) {
  const req = ctx.req as Context['req'] | Http2ServerRequest;
  if (isHttp2(req)) {
    refuseRestOfStream(req);
  } else {
    ctx.set('Connection', 'close');
    discardBodyThenClose(req);
  }
  return errors.tooLarge(`Request entity too large: limit is ${maxBytes}`);
}

export interface ObjectBody {
  object: Record<string, unknown>;
  /** Paths of keys the body repeats within one object (kube's strict decoding reports them), for formats that can. */
  duplicates: string[];
  /** The codec that decoded it. */
  codec: Codec;
}

/** Reads and decodes a body that must be one object (create/update) with the codec its Content-Type names (415 if none). */
export async function readObjectBody(ctx: Context, maxBytes: number, codecs: CodecSet, expected: TypeMeta): Promise<ObjectBody> {
  const codec = codecs.forBody(ctx.get('content-type'));
  const raw = await readRawBody(ctx, maxBytes);
  const value = decodeBody(codec, raw, expected);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest('the object provided is unrecognized or malformed: expected a JSON object');
  }
  auditRequestObject(ctx, value as Record<string, unknown>);
  return { object: value as Record<string, unknown>, duplicates: codec.duplicateFields?.(raw) ?? [], codec };
}
