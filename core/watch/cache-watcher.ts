import type { CacheEvent } from './cache-event.js';

/** One watch served from a cache. The cache hands it, in revision order, every event under its prefix after `last`. */
export interface CacheWatcher {
  readonly keyPrefix: string;
  /** Events with a revision at or below this one are not for this watcher (it has them already). */
  last: number;
  /** Watchers at the same point of one prefix are handed the same array (their encodings are shared): never mutate it. */
  deliver(events: readonly CacheEvent[]): void;
  /** The cache can no longer feed this watcher (it is stopping or lost its storage watch): end the watch. */
  terminate(): void;
}
