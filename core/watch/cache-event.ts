import type { KubeObject } from '../contracts/resource-type.js';

/** One change to one object, as the watch cache keeps and fans it out. Objects are shared: never mutate them. */
export interface CacheEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  /** The new state; for DELETED the last state, with the delete's resourceVersion. */
  object: KubeObject;
  /** The state before this change (for selector transitions: an object entering or leaving a selection). */
  previous?: KubeObject;
  revision: number;
  /**
   * This event already encoded for a watch representation (key: representation and event type), so that a thousand
   * watchers with the same Accept and API version share one encoding — as bytes, so that no watcher's write converts
   * the text again.
   */
  encoded?: Map<string, Buffer>;
  /**
   * `object` converted by a conversion webhook, per converter and API version (the converted object once known, the
   * pending conversion before): every watch of that version shares one conversion of the event.
   */
  converted?: Map<string, KubeObject | Promise<KubeObject>>;
  /** Set by the history that keeps the event: told the bytes of each encoding memoized on it, which it then keeps too. */
  holder?: EventHolder;
}

/** What keeps an event (the watch cache's history) and so counts the bytes memoized on it. */
export interface EventHolder {
  weigh(event: CacheEvent, bytes: number): void;
}

/** The event's encoding for `representation`, computed once per event and representation. */
export function encodedOnce(event: CacheEvent, representation: string, encode: () => Buffer): Buffer {
  const memo = (event.encoded ??= new Map());
  let text = memo.get(representation);
  if (text === undefined) {
    text = encode();
    memo.set(representation, text);
    event.holder?.weigh(event, text.length);
  }
  return text;
}

/** Encodings of whole batches: the arrays the watch cache hands every watcher of a prefix in one round. */
const batchEncodings = new WeakMap<readonly CacheEvent[], Map<string, Buffer>>();

/**
 * A batch's encoding for `representation`, computed once for all the watchers handed that batch (and dropped with
 * it), so that a thousand watchers of several events each write one shared buffer rather than a copy each.
 */
export function batchEncodedOnce(events: readonly CacheEvent[], representation: string, encode: () => Buffer): Buffer {
  let memo = batchEncodings.get(events);
  if (!memo) batchEncodings.set(events, (memo = new Map()));
  let bytes = memo.get(representation);
  if (bytes === undefined) memo.set(representation, (bytes = encode()));
  return bytes;
}
