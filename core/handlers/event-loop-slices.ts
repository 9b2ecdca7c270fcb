import { performance } from 'node:perf_hooks';

/**
 * How long one piece of a large response's work may hold the event loop before other requests get a turn: short
 * enough that a slice, the write that follows it and a garbage collection together stay well under 50 ms.
 */
export const sliceMs = 10;

/**
 * Resolves on a later turn of the event loop, after the I/O that is ready now (other requests) has run. Sliced work
 * starts with it too: a slice begun in the I/O phase (a request's handler, a drained socket) would otherwise be
 * followed, in the same turn, by the slice it schedules, and hold the loop twice as long.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * `items.map(fn)` in slices of ~10 ms with the event loop free in between: preparing a 50,000-item list (conversion,
 * PartialObjectMetadata) no longer stalls every other request. Exceptions from `fn` reject the promise.
 */
export async function mapInSlices<T, U>(items: readonly T[], fn: (item: T) => U): Promise<U[]> {
  const out = new Array<U>(items.length);
  await nextTurn();
  let started = performance.now();
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i]!);
    // Reading the clock costs about as much as mapping a small item: look every 16 items.
    if (i % 16 !== 15 || performance.now() - started < sliceMs) continue;
    await nextTurn();
    started = performance.now();
  }
  return out;
}
