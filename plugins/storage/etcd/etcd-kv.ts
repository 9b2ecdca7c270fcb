import {
  CompactedError,
  FutureRevisionError,
  type GetOptions,
  type GetResult,
  type KVStore,
  type KVWatch,
  type KVWatchHandlers,
  type RangeOptions,
  type RangeResult,
  type TxnResult,
} from '../../../core/contracts/kv-store.js';
import { EtcdCaller, type Deadline } from './etcd-call.js';
import { EtcdClient, type EtcdConnectionOptions } from './etcd-client.js';
import { announcedCompaction, CompactionRounds, compactRevKey } from './etcd-compaction.js';
import { absent, modifiedAt, present } from './etcd-compare.js';
import { isCompacted, isFutureRevision } from './etcd-errors.js';
import { EtcdKeys } from './etcd-keys.js';
import { readKeyValue } from './etcd-values.js';
import { EtcdWatchFeed } from './etcd-watch-feed.js';
import { openEtcdWatch } from './etcd-watch-stream.js';
import type { TxnRequest, TxnResponse, WatchEvent } from './grpc/etcd-messages.js';

export interface EtcdKVOptions extends EtcdConnectionOptions {
  /** etcd key prefix that replaces `keyRoot` (default `/registry`: kube-apiserver's `--etcd-prefix`). */
  prefix?: string;
  /** The leading part of every KV key that `prefix` replaces in etcd (default `/registry`, where kapi's keys live). */
  keyRoot?: string;
  /** Deadline of every etcd call, retries included (default 5 s): a request waits no longer on etcd. */
  callTimeoutMs?: number;
  /** Deadline of the readiness check's read (default 2 s, kube-apiserver's `--etcd-readycheck-timeout`). */
  healthTimeoutMs?: number;
  /** How long a watch feed keeps resuming after losing etcd before it ends every watch (default 5 s). */
  watchResumeTimeoutMs?: number;
}

/**
 * The KV contract mapped one to one onto etcd: the store revision is etcd's revision, createRevision/modRevision are
 * etcd's, writes are transactions comparing the key's create or mod revision (the failure branch reads the current
 * value), reads at a revision are etcd reads at that revision, compaction is etcd's. Reads are linearizable (quorum),
 * so a read on one kapi instance sees every write acknowledged by another.
 *
 * Watches come from EtcdWatchFeed (one etcd watch per store, with exact progress). `compactedRevision()` is what this
 * store knows of: its own compactions, compaction rounds of other servers (the `compact_rev_key` writes the feed sees
 * or a round's transaction reads) and etcd's compacted revision when a read or watch hits it.
 */
export class EtcdKV implements KVStore {
  private readonly client: EtcdClient;
  private readonly keys: EtcdKeys;
  private readonly caller: EtcdCaller;
  private readonly feed: EtcdWatchFeed;
  private readonly rounds: CompactionRounds;
  private readonly healthTimeoutMs: number;
  private compacted = 0;
  private closed = false;

  constructor(options: EtcdKVOptions) {
    this.keys = new EtcdKeys(options.prefix ?? '/registry', options.keyRoot ?? '/registry');
    this.client = new EtcdClient(options);
    this.caller = new EtcdCaller(options.callTimeoutMs ?? 5_000);
    this.healthTimeoutMs = options.healthTimeoutMs ?? 2_000;
    this.rounds = new CompactionRounds(this.client, this.caller);
    this.feed = new EtcdWatchFeed({
      client: this.client,
      keys: this.keys,
      currentRevision: () => this.currentRevision(),
      compactedRevision: () => this.compacted,
      onCompacted: (revision) => this.noteCompacted(revision),
      onOtherEvent: (ev: WatchEvent) => {
        const announced = announcedCompaction(ev.kv.key, ev.kv.value);
        if (announced !== undefined) this.noteCompacted(announced);
      },
      createTimeoutMs: this.caller.timeoutMs,
      resumeTimeoutMs: options.watchResumeTimeoutMs ?? 5_000,
    });
  }

  async get(key: string, opts?: GetOptions): Promise<GetResult> {
    const revision = requested(opts?.revision);
    const res = await this.read(revision, (d) => this.client.range({ key: this.keys.toEtcd(key), revision }, d));
    const kv = readKeyValue(this.keys, res.kvs[0]);
    const at = revision || res.header.revision;
    return kv ? { kv, revision: at } : { revision: at };
  }

  async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    const revision = requested(opts?.revision);
    const limit = opts?.limit && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const bounds = this.keys.range(prefix, opts?.startAfterKey);
    const res = await this.read(revision, (d) => this.client.range({ key: bounds.key, rangeEnd: bounds.rangeEnd, limit, revision }, d));
    const kvs = res.kvs.map((kv) => readKeyValue(this.keys, kv)!);
    return { kvs, revision: revision || res.header.revision, more: res.more, count: res.count };
  }

  async create(key: string, value: Uint8Array): Promise<TxnResult> {
    const k = this.keys.toEtcd(key);
    // One copy, sent and returned: the caller may reuse its buffer.
    const v = Buffer.from(value);
    const res = await this.txn({
      compare: [absent(k)],
      success: [{ put: { key: k, value: v } }],
      failure: [{ range: { key: k } }],
    });
    const revision = res.header.revision;
    if (!res.succeeded) return this.failed(res);
    return { succeeded: true, revision, kv: { key, value: v, createRevision: revision, modRevision: revision } };
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<TxnResult> {
    const k = this.keys.toEtcd(key);
    // No key has modRevision 0; etcd would compare a missing key's 0 as equal and create it.
    if (!(expectedModRevision > 0)) {
      const res = await this.caller.call('read', (d) => this.client.range({ key: k }, d));
      const current = readKeyValue(this.keys, res.kvs[0]);
      const revision = res.header.revision;
      return current ? { succeeded: false, revision, current } : { succeeded: false, revision };
    }
    const v = Buffer.from(value);
    const res = await this.txn({
      compare: [modifiedAt(k, expectedModRevision)],
      // Reads in a transaction see its earlier writes: the keys-only read gives the createRevision without the value.
      success: [{ put: { key: k, value: v } }, { range: { key: k, keysOnly: true } }],
      failure: [{ range: { key: k } }],
    });
    if (!res.succeeded) return this.failed(res);
    const revision = res.header.revision;
    const written = res.responses[1]?.range?.kvs[0];
    const createRevision = written ? written.createRevision : revision;
    return { succeeded: true, revision, kv: { key, value: v, createRevision, modRevision: revision } };
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    const k = this.keys.toEtcd(key);
    const compare = expectedModRevision === undefined ? [present(k)] : [modifiedAt(k, expectedModRevision), present(k)];
    const res = await this.txn({
      compare,
      success: [{ deleteRange: { key: k, prevKv: true } }],
      failure: [{ range: { key: k } }],
    });
    if (!res.succeeded) return this.failed(res);
    const kv = readKeyValue(this.keys, res.responses[0]?.deleteRange?.prevKvs[0]);
    return kv ? { succeeded: true, revision: res.header.revision, kv } : { succeeded: true, revision: res.header.revision };
  }

  watch(prefix: string, afterRevision: number, handlers: KVWatchHandlers): KVWatch {
    return this.feed.watch(prefix, afterRevision, handlers);
  }

  async currentRevision(): Promise<number> {
    const res = await this.caller.call('read', (d) => this.client.range({ key: compactRevKey, countOnly: true }, d));
    return res.header.revision;
  }

  async compact(revision: number): Promise<void> {
    try {
      await this.caller.call('read', (d) => this.client.compact(revision, d));
    } catch (err) {
      if (isFutureRevision(err)) throw new FutureRevisionError(revision, await this.currentRevision());
      // etcd has compacted at or beyond `revision` already (another server, or a retry of ours).
      if (!isCompacted(err)) throw err;
    }
    this.noteCompacted(revision);
  }

  /** The compactor's round: compact only when no other server on this etcd compacted since this one's last round. */
  async compactRound(revision: number): Promise<void> {
    if (await this.rounds.claim(revision, (seen) => this.noteCompacted(seen))) await this.compact(revision);
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async healthCheck(): Promise<void> {
    await this.caller.call('probe', (d) => this.client.range({ key: compactRevKey, countOnly: true }, d), this.healthTimeoutMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.feed.close();
    this.caller.close();
    this.client.close();
  }

  private txn(request: TxnRequest): Promise<TxnResponse> {
    return this.caller.call('write', (d) => this.client.txn(request, d));
  }

  /** A failed comparison: the current value (from the failure branch's read), absent when the key does not exist. */
  private failed(res: TxnResponse): TxnResult {
    const current = readKeyValue(this.keys, res.responses[0]?.range?.kvs[0]);
    const revision = res.header.revision;
    return current ? { succeeded: false, revision, current } : { succeeded: false, revision };
  }

  /** A read at `revision` (0: the latest), with etcd's revision errors as the contract's. */
  private async read<T>(revision: number, fn: (deadline: Deadline) => Promise<T>): Promise<T> {
    try {
      return await this.caller.call('read', fn);
    } catch (err) {
      if (isCompacted(err)) throw new CompactedError(revision, await this.learnCompacted(revision));
      if (isFutureRevision(err)) throw new FutureRevisionError(revision, await this.currentRevision());
      throw err;
    }
  }

  /**
   * etcd refused `revision` as compacted, so it has compacted beyond it. If no round or compaction told us how far,
   * ask etcd: a watch from a compacted revision is cancelled with etcd's compacted revision.
   */
  private async learnCompacted(revision: number): Promise<number> {
    if (this.compacted > revision) return this.compacted;
    const learned = await new Promise<number>((resolve) => {
      const probe = openEtcdWatch(
        this.client,
        { key: compactRevKey, startRevision: revision },
        { onEvents: () => undefined, onEnd: (_err, compacted) => resolve(compacted ?? revision + 1) },
        this.healthTimeoutMs,
      );
      setTimeout(() => {
        probe.cancel();
        resolve(revision + 1);
      }, this.healthTimeoutMs).unref();
    });
    this.noteCompacted(learned);
    return this.compacted;
  }

  private noteCompacted(revision: number): void {
    if (revision > this.compacted) this.compacted = revision;
  }
}

/** A requested read revision: 0 (the latest) or a positive integer. */
function requested(revision: number | undefined): number {
  return revision && revision > 0 ? Math.floor(revision) : 0;
}
