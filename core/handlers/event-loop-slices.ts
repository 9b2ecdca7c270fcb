import { performance } from 'node:perf_hooks';
import { sliceMs, turnShare } from '../../lib/async/turn-share.js';

/**
 * Resolves on a later turn of the event loop, after the loop has polled for I/O (other requests) at least once. One
 * setImmediate is not enough: called from an I/O callback (a request's handler, a drained socket) it runs in the same
 * turn, right after that callback, so the work before it and the slice after it would hold the loop as one. Sliced
 * work starts with it too, for the same reason.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
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

/**
 * For work that is not one `map`: a function to await after each step, which lets the event loop run once this
 * turn's shares of such work (turnShare: requests' bodies too) took ~10 ms, and otherwise returns at once.
 */
export function slicer(): () => Promise<void> {
  return async () => {
    await turnShare();
  };
}
