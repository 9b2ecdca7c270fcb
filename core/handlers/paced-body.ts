import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { nextTurn } from './event-loop-slices.js';
import { sliceMs } from '../../lib/async/turn-share.js';

/** Lists with at least this many items are written piece by piece; smaller ones in one go, with a Content-Length. */
export const pacedListItems = 500;

/**
 * At most this many bytes (of strings: UTF-16 code units) go in one batch: writing a batch costs too (TLS encrypts it
 * in one go, in the same turn), and pieces already encoded (cached CBOR or protobuf items) cost next to nothing to produce.
 */
const sliceBytes = 256 * 1024;

/**
 * A response body made of encoded pieces, produced lazily and handed out in batches of at most ~10 ms of work or
 * 256 KiB, with the event loop free before each: a 50,000-item list in a slow encoding no longer stalls every other
 * request. Empty pieces are steps of work without bytes yet (e.g. protobuf encodes every item before the lengths
 * that precede them).
 */
export function pacedBody(pieces: Iterable<Buffer | string>): Readable {
  async function* batches(): AsyncGenerator<Buffer> {
    let batch: (Buffer | string)[] = [];
    let size = 0;
    await nextTurn(); // not in the turn that prepared the list (its last slice)
    let started = performance.now();
    for (const piece of pieces) {
      if (piece.length) batch.push(piece);
      size += piece.length;
      if (size < sliceBytes && performance.now() - started < sliceMs) continue;
      if (batch.length) yield joined(batch);
      batch = [];
      size = 0;
      await nextTurn();
      started = performance.now();
    }
    if (batch.length) yield joined(batch);
  }
  return Readable.from(batches(), { objectMode: false });
}

/** The batch's bytes in one buffer, written in place (no buffer per string piece to copy again and collect). */
function joined(batch: (Buffer | string)[]): Buffer {
  let size = 0;
  for (const p of batch) size += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of batch) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
  return out;
}
