/**
 * The storage contract every storage plugin implements. It is modelled on etcd's MVCC KV/Watch API so that the
 * etcd plugin is a thin mapping and the embedded engines (SQLite, memory) are a revision log (kine-style).
 *
 * - There is one store-wide revision that increases by exactly one on every successful write.
 * - Every live key carries the revision that created it and the revision that last modified it.
 * - Writes are compare-and-swap; a failed comparison returns the current value instead of throwing.
 * - Revisions below the compacted revision can no longer be read (the state at the compacted revision itself is
 *   kept, as in etcd), and watches must start at or after it.
 */
export interface KeyValue {
  key: string;
  value: Uint8Array;
  createRevision: number;
  modRevision: number;
}

export interface GetOptions {
  /** Read the key as it was at this revision (0/undefined = latest). */
  revision?: number;
}

export interface GetResult {
  kv?: KeyValue;
  /** The store revision the read was served at. */
  revision: number;
}

export interface RangeOptions {
  /** Return only keys strictly greater than this key (for paging). */
  startAfterKey?: string;
  /** At most this many keys (0/undefined = no limit). */
  limit?: number;
  /** Read as of this revision (0/undefined = latest). */
  revision?: number;
}

export interface RangeResult {
  /** Keys in ascending byte order. */
  kvs: KeyValue[];
  /** The store revision the read was served at. */
  revision: number;
  /** True when keys beyond `limit` exist under the prefix at that revision. */
  more: boolean;
  /** Number of keys under the prefix after `startAfterKey` at that revision, not counting the limit. */
  count: number;
}

/** Outcome of a compare-and-swap write. */
export type TxnResult =
  | { succeeded: true; revision: number; kv?: KeyValue }
  | { succeeded: false; revision: number; current?: KeyValue };

export interface KVEvent {
  type: 'PUT' | 'DELETE';
  /** For PUT: the new value. For DELETE: the deleted key with its last value, `modRevision` = the delete's revision. */
  kv: KeyValue;
  /** The value before this event, when there was one. */
  prevKv?: KeyValue;
}

export interface KVWatchHandlers {
  /** Events in revision order, each revision at most once, none skipped. */
  onEvents(events: KVEvent[]): void;
  /** The watch ended with an error (e.g. `CompactedError`); no more events follow. */
  onError(err: Error): void;
  /**
   * Progress notification: every event under the prefix up to this revision has been delivered. Stores call it when
   * the watch has caught up and, afterwards, when writes outside the prefix advance the store revision (batched).
   */
  onProgress?(revision: number): void;
}

export interface KVWatch {
  cancel(): void;
}

export interface KVStore {
  get(key: string, opts?: GetOptions): Promise<GetResult>;
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  /** Create `key` only if it does not exist. On failure `current` is the existing value. */
  create(key: string, value: Uint8Array): Promise<TxnResult>;
  /** Replace `key` only if its modRevision equals `expectedModRevision`. On failure `current` is the existing value (absent if deleted). */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<TxnResult>;
  /** Delete `key`, only if its modRevision equals `expectedModRevision` when given. On success `kv` is the deleted value. */
  delete(key: string, expectedModRevision?: number): Promise<TxnResult>;
  /** Watch every change under `prefix` with a revision greater than `afterRevision`. */
  watch(prefix: string, afterRevision: number, handlers: KVWatchHandlers): KVWatch;
  /** The current store revision. */
  currentRevision(): Promise<number>;
  /** Discard history superseded at `revision`; reads below it fail afterwards. */
  compact(revision: number): Promise<void>;
  /** The highest compacted revision (0 if never compacted). */
  compactedRevision(): Promise<number>;
  /**
   * Optional: one round of the server's periodic compaction (core/storage/compactor.ts) to `revision`. A store that
   * several servers share implements it so that, per round, one of them compacts and the others skip (etcd: the
   * `compact_rev_key` transaction of kube-apiserver). Without it the compactor calls `compact`.
   */
  compactRound?(revision: number): Promise<void>;
  /** Throws when the store cannot serve (used by /readyz). */
  healthCheck(): Promise<void>;
  close(): Promise<void>;
}

/** A read or watch asked for history that compaction has removed. */
export class CompactedError extends Error {
  constructor(readonly requestedRevision: number, readonly compactedRevision: number) {
    super(`required revision ${requestedRevision} has been compacted (compacted revision ${compactedRevision})`);
    this.name = 'CompactedError';
  }
}

/** A read asked for a revision the store has not reached yet. */
export class FutureRevisionError extends Error {
  constructor(readonly requestedRevision: number, readonly currentRevision: number) {
    super(`required revision ${requestedRevision} is a future revision (current revision ${currentRevision})`);
    this.name = 'FutureRevisionError';
  }
}
