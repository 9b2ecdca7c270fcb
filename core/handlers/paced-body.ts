import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';

/** How long writing one response may hold the event loop before other requests get a turn. */
const sliceMs = 20;

/** Lists with at least this many items are written piece by piece; smaller ones in one go, with a Content-Length. */
export const pacedListItems = 500;

/**
 * A response body made of encoded pieces, produced lazily and handed out in batches of at most ~20 ms of work, with
 * the event loop free in between: a 50,000-item list in a slow encoding no longer stalls every other request.
 */
export function pacedBody(pieces: Iterable<Buffer | string>): Readable {
  async function* batches(): AsyncGenerator<Buffer> {
    let batch: (Buffer | string)[] = [];
    let started = performance.now();
    for (const piece of pieces) {
      batch.push(piece);
      if (performance.now() - started < sliceMs) continue;
      yield joined(batch);
      batch = [];
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    }
    if (batch.length) yield joined(batch);
  }
  return Readable.from(batches(), { objectMode: false });
}

function joined(batch: (Buffer | string)[]): Buffer {
  return Buffer.concat(batch.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}
