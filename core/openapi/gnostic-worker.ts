/**
 * Worker thread: encodes OpenAPI JSON as gnostic protobuf (gnostic-encoder.ts sends the documents). Reading and
 * encoding the Swagger document of thousands of CRDs takes seconds, which the server's event loop must not.
 */
import { parentPort } from 'node:worker_threads';
import { openapiV3Protobuf, swaggerProtobuf } from './gnostic-protobuf.js';
import type { GnosticReply, GnosticRequest } from './gnostic-encoder.js';

/** The parts received so far of the documents still arriving. */
const arriving = new Map<number, string[]>();

parentPort!.on('message', ({ id, kind, part, last }: GnosticRequest) => {
  const parts = arriving.get(id) ?? [];
  parts.push(part);
  if (!last) return void arriving.set(id, parts);
  arriving.delete(id);
  let reply: GnosticReply;
  try {
    const json = parts.join('');
    const bytes = kind === 'v2' ? swaggerProtobuf(json) : openapiV3Protobuf(json);
    reply = { id, bytes };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply, reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []);
});
