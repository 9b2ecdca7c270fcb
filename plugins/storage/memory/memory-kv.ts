import {
  CompactedError,
  FutureRevisionError,
  type GetOptions,
  type GetResult,
  type KeyValue,
  type KVEvent,
  type KVStore,
  type KVWatch,
  type KVWatchHandlers,
  type RangeOptions,
  type RangeResult,
  type TxnResult,
} from '../../../core/contracts/kv-store.js';
import { hasPrefix, prefixSlice, sortedInsert, sortedRemove } from '../keys.js';
import { WatchHub, type WatchEventSource } from '../watch-hub.js';

/** One stored version of a key. A tombstone keeps the value the key had when it was deleted. */
interface Version {
  readonly rev: number;
  readonly createRev: number;
  readonly value: Uint8Array;
  readonly deleted: boolean;
}

/** Bytes of superseded values a MemoryKV keeps by default (see `historyMaxBytes`). */
export const defaultHistoryMaxBytes = 64 * 1024 * 1024;

/**
 * An in-memory revision log implementing the storage contract: every version of every key is kept until compaction,
 * so reads at past revisions and watches from past revisions work exactly as with the persistent engines. Superseded
 * values are bounded in bytes too: past `historyMaxBytes` the store compacts itself (as etcd's auto-compaction does)
 * down to half of it, oldest revisions first; reads and watches before that get "compacted" errors (410), as after
 * any compaction.
 *
 * Indexes: a map from key to its versions (ascending revision), a sorted array of live keys (latest-revision ranges and
 * counts are a binary search plus a slice), a sorted array of every key with retained history (past-revision ranges),
 * and the event log by revision (watch replay). Values are copied on the way in; returned values must be treated as
 * read-only.
 */
export class MemoryKV implements KVStore {
  private rev = 0;
  private compactRev = 0;
  private closed = false;
  private readonly history = new Map<string, Version[]>();
  /** Keys whose latest version is not a tombstone, sorted. */
  private liveKeys: string[] = [];
  /** Keys with at least one retained version, sorted. */
  private historyKeys: string[] = [];
  /** `log[i]` is the event of revision `logStart + i`; revisions at or below the compacted revision are dropped. */
  private log: KVEvent[] = [];
  private logStart = 1;
  private readonly hub: WatchHub;
  /** Bytes of the values of retained versions that are no longer the latest of their key (tombstones share theirs). */
  private supersededBytes = 0;
  private readonly historyMaxBytes: number;

  constructor(options: { replayChunk?: number; historyMaxBytes?: number } = {}) {
    this.historyMaxBytes = options.historyMaxBytes ?? defaultHistoryMaxBytes;
    const source: WatchEventSource = {
      readEvents: (prefix, after, max) => this.readEvents(prefix, after, max),
      currentRevision: () => this.rev,
      compactedRevision: () => this.compactRev,
    };
    this.hub = new WatchHub(source, Math.max(1, options.replayChunk ?? 10_000));
  }

  async get(key: string, opts?: GetOptions): Promise<GetResult> {
    this.assertOpen();
    const at = this.readRevision(opts?.revision);
    const v = this.versionAt(key, at);
    return v && !v.deleted ? { kv: toKV(key, v), revision: at } : { revision: at };
  }

  async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    this.assertOpen();
    const at = this.readRevision(opts?.revision);
    const limit = opts?.limit && opts.limit > 0 ? Math.floor(opts.limit) : Infinity;
    const kvs: KeyValue[] = [];
    if (at === this.rev) {
      const [from, to] = prefixSlice(this.liveKeys, prefix, opts?.startAfterKey);
      const end = Math.min(to, from + limit);
      for (let i = from; i < end; i++) {
        const key = this.liveKeys[i]!;
        const versions = this.history.get(key)!;
        kvs.push(toKV(key, versions[versions.length - 1]!));
      }
      return { kvs, revision: at, more: to - from > kvs.length, count: to - from };
    }
    const [from, to] = prefixSlice(this.historyKeys, prefix, opts?.startAfterKey);
    let count = 0;
    for (let i = from; i < to; i++) {
      const key = this.historyKeys[i]!;
      const v = this.versionAt(key, at);
      if (!v || v.deleted) continue;
      count++;
      if (kvs.length < limit) kvs.push(toKV(key, v));
    }
    return { kvs, revision: at, more: count > kvs.length, count };
  }

  async create(key: string, value: Uint8Array): Promise<TxnResult> {
    this.assertOpen();
    const versions = this.history.get(key);
    const latest = versions?.[versions.length - 1];
    if (latest && !latest.deleted) return { succeeded: false, revision: this.rev, current: toKV(key, latest) };
    const rev = this.rev + 1;
    const v: Version = { rev, createRev: rev, value: value.slice(), deleted: false };
    this.append(key, v);
    sortedInsert(this.liveKeys, key);
    const kv = toKV(key, v);
    this.commit({ type: 'PUT', kv });
    return { succeeded: true, revision: rev, kv };
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<TxnResult> {
    this.assertOpen();
    const versions = this.history.get(key);
    const latest = versions?.[versions.length - 1];
    if (!latest || latest.deleted) return { succeeded: false, revision: this.rev };
    if (latest.rev !== expectedModRevision) {
      return { succeeded: false, revision: this.rev, current: toKV(key, latest) };
    }
    const rev = this.rev + 1;
    const v: Version = { rev, createRev: latest.createRev, value: value.slice(), deleted: false };
    this.append(key, v);
    this.supersededBytes += latest.value.length;
    const kv = toKV(key, v);
    this.commit({ type: 'PUT', kv, prevKv: toKV(key, latest) });
    return { succeeded: true, revision: rev, kv };
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    this.assertOpen();
    const versions = this.history.get(key);
    const latest = versions?.[versions.length - 1];
    if (!latest || latest.deleted) return { succeeded: false, revision: this.rev };
    if (expectedModRevision !== undefined && latest.rev !== expectedModRevision) {
      return { succeeded: false, revision: this.rev, current: toKV(key, latest) };
    }
    const rev = this.rev + 1;
    const tombstone: Version = { rev, createRev: latest.createRev, value: latest.value, deleted: true };
    this.append(key, tombstone);
    this.supersededBytes += latest.value.length;
    sortedRemove(this.liveKeys, key);
    const prevKv = toKV(key, latest);
    this.commit({ type: 'DELETE', kv: toKV(key, tombstone), prevKv });
    return { succeeded: true, revision: rev, kv: prevKv };
  }

  watch(prefix: string, afterRevision: number, handlers: KVWatchHandlers): KVWatch {
    return this.hub.watch(prefix, afterRevision, handlers);
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.rev;
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    this.compactTo(revision);
  }

  private compactTo(revision: number): void {
    if (revision <= this.compactRev) return;
    const keep: string[] = [];
    for (const key of this.historyKeys) {
      const versions = this.history.get(key)!;
      // The newest version at or below `revision` is the key's state at `revision`; older ones are superseded.
      let i = versions.length - 1;
      while (i >= 0 && versions[i]!.rev > revision) i--;
      for (const dropped of versions.slice(0, Math.max(0, i))) if (!dropped.deleted) this.supersededBytes -= dropped.value.length;
      if (i > 0) versions.splice(0, i);
      if (i >= 0 && versions[0]!.deleted) versions.shift();
      if (versions.length === 0) this.history.delete(key);
      else keep.push(key);
    }
    this.historyKeys = keep;
    const drop = Math.min(this.log.length, revision - this.logStart + 1);
    if (drop > 0) {
      this.log.splice(0, drop);
      this.logStart += drop;
    }
    this.compactRev = revision;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compactRev;
  }

  async healthCheck(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.hub.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('storage is closed');
  }

  /** Validate a requested read revision and resolve 0/undefined to the current revision. */
  private readRevision(revision: number | undefined): number {
    if (!revision || revision <= 0) return this.rev;
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    if (revision < this.compactRev) throw new CompactedError(revision, this.compactRev);
    return revision;
  }

  private versionAt(key: string, at: number): Version | undefined {
    const versions = this.history.get(key);
    if (!versions) return undefined;
    let lo = 0;
    let hi = versions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (versions[mid]!.rev <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? versions[lo - 1] : undefined;
  }

  private append(key: string, v: Version): void {
    const versions = this.history.get(key);
    if (versions) versions.push(v);
    else {
      this.history.set(key, [v]);
      sortedInsert(this.historyKeys, key);
    }
  }

  private commit(event: KVEvent): void {
    this.rev = event.kv.modRevision;
    this.log.push(event);
    this.hub.publish(event);
    if (this.supersededBytes > this.historyMaxBytes) this.compactTo(this.revisionFreeing(this.supersededBytes - this.historyMaxBytes / 2));
  }

  /** The oldest revision whose compaction frees at least `bytes` of superseded values. */
  private revisionFreeing(bytes: number): number {
    let freed = 0;
    for (const event of this.log) {
      // Compacting at an update or delete drops the version it superseded.
      freed += event.prevKv?.value.length ?? 0;
      if (freed >= bytes) return event.kv.modRevision;
    }
    return this.rev;
  }

  private readEvents(prefix: string, after: number, max: number): { events: KVEvent[]; through: number } {
    const through = Math.max(after, Math.min(this.rev, after + max));
    const events: KVEvent[] = [];
    for (let r = Math.max(after + 1, this.logStart); r <= through; r++) {
      const ev = this.log[r - this.logStart]!;
      if (hasPrefix(ev.kv.key, prefix)) events.push(ev);
    }
    return { events, through };
  }
}

function toKV(key: string, v: Version): KeyValue {
  return { key, value: v.value, createRevision: v.createRev, modRevision: v.rev };
}
