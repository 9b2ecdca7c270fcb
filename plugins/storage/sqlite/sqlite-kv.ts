import Database from 'better-sqlite3';
import { closeSync, fdatasync, fsyncSync, fdatasyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
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
import { compareKeys, prefixEnd } from '../keys.js';
import { WatchHub } from '../watch-hub.js';
import { makePrivateDatabaseFile } from './private-database-file.js';
import { turnShare } from '../../../lib/async/turn-share.js';

/**
 * Schema (kine-style revision log):
 *
 * - `kv`: one row per revision. `id` is the revision (AUTOINCREMENT, so ids are never reused and `sqlite_sequence`
 *   remembers the highest revision even when compaction deletes the newest rows). `prev_revision` is the id of the
 *   key's previous row (0 if none; it may be a tombstone). A tombstone (`deleted = 1`) keeps the value the key had.
 * - `kv_current`: the id of the latest row of every live key, so latest-revision ranges and counts walk one narrow
 *   index in key order and never look at history.
 * - `meta`: the compacted revision (survives restart).
 *
 * Compaction at revision C deletes every row at or below C that is superseded by a row at or below C, and every
 * tombstone at or below C. The state at C itself stays readable. Because every superseded row is the
 * `prev_revision` of its successor, compaction only has to visit the rows in (previous C, C].
 *
 * One process owns the file: the current revision and the latest value of every live key are kept in memory, and
 * watch events are fanned out in-process.
 *
 * Latest state in memory: `latest` maps every live key to its latest value and revisions (loaded from `kv_current` at
 * open, and updated right after each commit). Gets at the latest revision are a map lookup, ranges at the latest
 * revision take only the key names from `kv_current` and the values from the map, and the compare-and-swap checks of
 * writes need no query. The cost is the live data set in memory (not history) — what kube-apiserver's watch cache
 * holds anyway. Each value is kept as its own exact-size ArrayBuffer, without a Uint8Array over it (another ~96 bytes
 * of heap per key): reads hand out a fresh view.
 *
 * Group commit: writes are queued and committed on `setImmediate` (on the turn's share, see flushOnImmediate), so
 * every write issued in the same event-loop turn shares ONE transaction, at most `maxBatch` per transaction. Inside it
 * the writes are applied in arrival order, each compare-and-swap against the state including the batch's earlier
 * writes, each successful write taking the next revision. If the transaction fails, every write in it fails with that
 * error, nothing is published and nothing in memory changes.
 *
 * Durability off the event loop: the database runs with `synchronous = NORMAL`, so COMMIT writes the transaction to
 * the WAL without waiting for the disk — it already survives the process being killed (the OS holds the WAL). The
 * store then syncs the WAL file itself with an asynchronous `fdatasync` (libuv's thread pool), which is what
 * `synchronous = FULL` would have done inside COMMIT while blocking every request; checkpoints still sync the WAL
 * before and the database after (NORMAL keeps that). Only once the sync that covers a transaction has returned are
 * its watch events published (in revision order) and its callers' promises resolved — a write is never acknowledged,
 * nor seen by a watcher, before it is durable. The in-memory state and revision advance at COMMIT, so reads and the
 * next transactions see the write at once (a read may thus see a write whose acknowledgement is still on its way, as
 * with any committed-but-unacknowledged write). One sync is in flight at a time; transactions committed meanwhile
 * share the next one.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS kv (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS kv_name_id ON kv (name, id);
CREATE TABLE IF NOT EXISTS kv_current (
  name TEXT NOT NULL PRIMARY KEY,
  id INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
  key TEXT NOT NULL PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

export interface SqliteKVOptions {
  /** Revisions visited per compaction transaction, so a large compaction does not block other work for long. */
  compactBatch?: number;
  /** Revisions scanned per watch catch-up step. */
  replayChunk?: number;
  /** Writes committed per transaction at most (group commit); the rest wait for the next event-loop turn. */
  maxBatch?: number;
}

/** What is kept in memory of a live key: its value's bytes (the whole buffer, never mutated) and its revisions. */
interface Latest {
  readonly value: ArrayBuffer;
  readonly createRevision: number;
  readonly modRevision: number;
}

interface Row {
  id: number;
  name: string;
  create_revision: number;
  value: Uint8Array | null;
}

interface HistoryRow {
  id: number;
  create_revision: number;
  deleted: number;
  value: Uint8Array | null;
}

interface EventRow {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  value: Uint8Array | null;
  p_id: number | null;
  p_deleted: number | null;
  p_create_revision: number | null;
  p_value: Uint8Array | null;
}

/** A write waiting for the next group commit. */
interface PendingWrite {
  readonly op: 'create' | 'update' | 'delete';
  readonly key: string;
  /** A private copy of the caller's bytes (create, update). */
  readonly value: Uint8Array | undefined;
  /** Required modRevision (update; delete when given). */
  readonly expected: number | undefined;
  readonly resolve: (result: TxnResult) => void;
  readonly reject: (err: unknown) => void;
}

/** A committed transaction waiting for the WAL sync that makes it durable. */
interface CommittedBatch {
  readonly writes: readonly PendingWrite[];
  readonly outcome: BatchOutcome;
}

/** What one group-commit transaction produced; applied to memory only once it has committed. */
interface BatchOutcome {
  /** One per write, in the batch's order. */
  results: TxnResult[];
  /** One per successful write, in revision order. */
  events: KVEvent[];
  /** The latest value of every key the batch changed (`undefined`: deleted). */
  changes: Map<string, Latest | undefined>;
  /** The store revision after the batch. */
  revision: number;
}

export class SqliteKV implements KVStore {
  private readonly db: Database.Database;
  private readonly hub: WatchHub;
  private readonly statements = new Map<string, Database.Statement>();
  /** Latest committed value of every live key. Entries are never mutated and never handed out (callers get copies). */
  private readonly latest = new Map<string, Latest>();
  /** The latest committed revision. */
  private rev: number;
  /** The revision through which the WAL is synced: watch events and acknowledgements have gone out through it. */
  private syncedRev: number;
  /** Committed transactions not yet covered by a WAL sync, in commit order. */
  private unsynced: CommittedBatch[] = [];
  /** The WAL sync in flight, if any. */
  private syncing: Promise<void> | undefined;
  /** A descriptor of the WAL file, for the store's own syncs. */
  private readonly walFd: number;
  private compactRev: number;
  private compacting: Promise<void> = Promise.resolve();
  private closed = false;
  private queue: PendingWrite[] = [];
  private flushScheduled = false;

  private readonly stGetAt: Database.Statement<[string, number], HistoryRow>;
  private readonly stLastId: Database.Statement<[string], { id: number }>;
  private readonly stInsert: Database.Statement<[number, string, number, number, number, number, Uint8Array]>;
  private readonly stCurrentUpsert: Database.Statement<[string, number]>;
  private readonly stCurrentDelete: Database.Statement<[string]>;
  private readonly stEvents: Database.Statement<
    [{ after: number; through: number; prefix: string; end: string | null }],
    EventRow
  >;
  private readonly stSetMeta: Database.Statement<[string, number]>;
  private readonly stCompactPrev: Database.Statement<[number, number]>;
  private readonly stCompactTombstones: Database.Statement<[number, number]>;
  private readonly txBatch: (batch: readonly PendingWrite[]) => BatchOutcome;
  private readonly txCompactBatch: (from: number, to: number) => void;

  private readonly compactBatch: number;
  private readonly maxBatch: number;
  /**
   * The commit (its fsync, the watch events, the callers' work once acknowledged) takes its share of a turn of the
   * event loop with the requests' work (turnShare): in a turn that already did its share, it waits for the next, and
   * the writes arriving meanwhile join it.
   */
  private readonly flushOnImmediate = (): void => {
    const share = turnShare();
    if (share) return void share.then(this.flushNow);
    this.flushNow();
  };
  private readonly flushNow = (): void => {
    this.flushScheduled = false;
    this.flush(false);
  };

  constructor(filePath: string, options: SqliteKVOptions = {}) {
    this.compactBatch = Math.max(1, options.compactBatch ?? 10_000);
    this.maxBatch = Math.max(1, Math.floor(options.maxBatch ?? 256));
    makePrivateDatabaseFile(filePath);
    this.db = new Database(filePath);
    let walFd: number | undefined;
    try {
      const mode = this.db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new Error(`sqlite storage: ${filePath} cannot use a write-ahead log (journal mode ${mode})`);
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('busy_timeout = 5000');
      this.db.pragma('temp_store = MEMORY');
      this.db.exec(SCHEMA);
      walFd = openSync(`${filePath}-wal`, 'r');
      // The WAL file and its directory entry are durable before any write is acknowledged through it.
      fdatasyncSync(walFd);
      syncDirectory(dirname(filePath));
    } catch (err) {
      if (walFd !== undefined) closeSync(walFd);
      this.db.close();
      throw err;
    }
    this.walFd = walFd;
    const db = this.db;

    const meta = db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE key = ?');
    this.compactRev = meta.get('compact_rev')?.value ?? 0;
    const seq = db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'kv'").get()?.seq ?? 0;
    const maxId = db.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM kv').get()?.id ?? 0;
    this.rev = Math.max(seq, maxId, this.compactRev);
    this.syncedRev = this.rev;
    const live = db.prepare<[], Row>(
      'SELECT c.name, k.id, k.create_revision, k.value FROM kv_current c JOIN kv k ON k.id = c.id',
    );
    for (const row of live.iterate()) this.latest.set(row.name, latestOf(bytes(row.value), row.create_revision, row.id));

    this.stGetAt = db.prepare(
      'SELECT id, create_revision, deleted, value FROM kv WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1',
    );
    this.stLastId = db.prepare('SELECT id FROM kv WHERE name = ? ORDER BY id DESC LIMIT 1');
    this.stInsert = db.prepare(
      'INSERT INTO kv (id, name, created, deleted, create_revision, prev_revision, value) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.stCurrentUpsert = db.prepare(
      'INSERT INTO kv_current (name, id) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET id = excluded.id',
    );
    this.stCurrentDelete = db.prepare('DELETE FROM kv_current WHERE name = ?');
    // `+k.name` keeps the planner on the revision (rowid) range; the name filter is applied to those rows.
    this.stEvents = db.prepare(
      `SELECT k.id, k.name, k.created, k.deleted, k.create_revision, k.value,
              p.id AS p_id, p.deleted AS p_deleted, p.create_revision AS p_create_revision, p.value AS p_value
         FROM kv k LEFT JOIN kv p ON p.id = k.prev_revision
        WHERE k.id > @after AND k.id <= @through AND +k.name >= @prefix AND (@end IS NULL OR +k.name < @end)
        ORDER BY k.id`,
    );
    this.stSetMeta = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.stCompactPrev = db.prepare(
      'DELETE FROM kv WHERE id IN (SELECT prev_revision FROM kv WHERE id > ? AND id <= ? AND prev_revision > 0)',
    );
    this.stCompactTombstones = db.prepare('DELETE FROM kv WHERE id > ? AND id <= ? AND deleted = 1');

    this.txBatch = db.transaction((batch: readonly PendingWrite[]): BatchOutcome => {
      let rev = this.rev;
      const changes = new Map<string, Latest | undefined>();
      const results: TxnResult[] = [];
      const events: KVEvent[] = [];
      for (const w of batch) {
        const key = w.key;
        // The key's state including the earlier writes of this batch.
        const cur = changes.has(key) ? changes.get(key) : this.latest.get(key);
        if (w.op === 'create') {
          if (cur) {
            results.push({ succeeded: false, revision: rev, current: keyValue(key, cur) });
            continue;
          }
          const prev = this.stLastId.get(key)?.id ?? 0;
          rev++;
          this.stInsert.run(rev, key, 1, 0, rev, prev, w.value!);
          this.stCurrentUpsert.run(key, rev);
          const kv: KeyValue = { key, value: w.value!, createRevision: rev, modRevision: rev };
          changes.set(key, latestOf(w.value!, rev, rev));
          results.push({ succeeded: true, revision: rev, kv: copyKV(kv) });
          events.push({ type: 'PUT', kv: copyKV(kv) });
          continue;
        }
        if (!cur) {
          results.push({ succeeded: false, revision: rev });
          continue;
        }
        // An update always compares; a delete only when given an expected modRevision.
        if ((w.op === 'update' || w.expected !== undefined) && cur.modRevision !== w.expected) {
          results.push({ succeeded: false, revision: rev, current: keyValue(key, cur) });
          continue;
        }
        rev++;
        if (w.op === 'update') {
          this.stInsert.run(rev, key, 0, 0, cur.createRevision, cur.modRevision, w.value!);
          this.stCurrentUpsert.run(key, rev);
          const kv: KeyValue = { key, value: w.value!, createRevision: cur.createRevision, modRevision: rev };
          changes.set(key, latestOf(w.value!, cur.createRevision, rev));
          results.push({ succeeded: true, revision: rev, kv: copyKV(kv) });
          events.push({ type: 'PUT', kv: copyKV(kv), prevKv: keyValue(key, cur) });
        } else {
          const last = keyValue(key, cur);
          this.stInsert.run(rev, key, 0, 1, cur.createRevision, cur.modRevision, last.value);
          this.stCurrentDelete.run(key);
          changes.set(key, undefined);
          results.push({ succeeded: true, revision: rev, kv: last });
          events.push({ type: 'DELETE', kv: { ...last, modRevision: rev }, prevKv: keyValue(key, cur) });
        }
      }
      return { results, events, changes, revision: rev };
    });
    this.txCompactBatch = db.transaction((from: number, to: number) => {
      this.stCompactPrev.run(from, to);
      this.stCompactTombstones.run(from, to);
      this.stSetMeta.run('compact_rev', to);
    });

    this.hub = new WatchHub(
      {
        readEvents: (prefix, after, max) => this.readEvents(prefix, after, max),
        currentRevision: () => this.syncedRev,
        compactedRevision: () => this.compactRev,
      },
      Math.max(1, options.replayChunk ?? 1_000),
    );
  }

  async get(key: string, opts?: GetOptions): Promise<GetResult> {
    const at = this.readRevision(opts?.revision);
    if (at === this.rev) {
      const cur = this.latest.get(key);
      return cur ? { kv: keyValue(key, cur), revision: at } : { revision: at };
    }
    const row = this.stGetAt.get(key, at);
    return row && !row.deleted ? { kv: toKV(key, row), revision: at } : { revision: at };
  }

  async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    const at = this.readRevision(opts?.revision);
    const limit = opts?.limit && opts.limit > 0 ? Math.floor(opts.limit) : -1;
    const after = opts?.startAfterKey;
    const exclusive = after !== undefined && compareKeys(after, prefix) >= 0;
    const params: (string | number)[] = [exclusive ? after! : prefix];
    const end = prefixEnd(prefix);
    if (end !== undefined) params.push(end);
    const cmp = exclusive ? '>' : '>=';
    const bounds = (col: string) => `${col} ${cmp} ?` + (end !== undefined ? ` AND ${col} < ?` : '');

    let kvs: KeyValue[];
    let count: number;
    if (at === this.rev) {
      // Key names in order from the narrow kv_current index; the values from memory.
      const where = bounds('name');
      const names = this.stmt<string>(`SELECT name FROM kv_current WHERE ${where} ORDER BY name LIMIT ?`, true).all(
        ...params,
        limit,
      );
      kvs = new Array<KeyValue>(names.length);
      for (let i = 0; i < names.length; i++) {
        const cur = this.latest.get(names[i]!);
        if (!cur) throw new Error(`sqlite storage: key ${JSON.stringify(names[i])} is missing from the latest state`);
        kvs[i] = keyValue(names[i]!, cur);
      }
      count =
        limit < 0 || names.length < limit
          ? names.length
          : this.stmt<number>(`SELECT count(*) FROM kv_current WHERE ${where}`, true).get(...params)!;
    } else {
      // Rows: walk the (name, id) index in key order and keep each key's newest row at `at`, so a page stops after
      // `limit` keys. Count: group the index range by key.
      const rows = this.stmt<Row>(
        `SELECT k.name, k.id, k.create_revision, k.value FROM kv k
          WHERE ${bounds('k.name')} AND k.deleted = 0
            AND k.id = (SELECT max(h.id) FROM kv h WHERE h.name = k.name AND h.id <= ?)
          ORDER BY k.name LIMIT ?`,
      ).all(...params, at, limit);
      kvs = rows.map((r) => toKV(r.name, r));
      count =
        limit < 0 || rows.length < limit
          ? rows.length
          : this.stmt<number>(
              `SELECT count(*) FROM (SELECT max(id) AS id FROM kv WHERE ${bounds('name')} AND id <= ? GROUP BY name) m
                 JOIN kv k ON k.id = m.id WHERE k.deleted = 0`,
              true,
            ).get(...params, at)!;
    }
    return { kvs, revision: at, more: count > kvs.length, count };
  }

  create(key: string, value: Uint8Array): Promise<TxnResult> {
    return this.enqueue('create', key, value, undefined);
  }

  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<TxnResult> {
    return this.enqueue('update', key, value, expectedModRevision);
  }

  delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    return this.enqueue('delete', key, undefined, expectedModRevision);
  }

  watch(prefix: string, afterRevision: number, handlers: KVWatchHandlers): KVWatch {
    return this.hub.watch(prefix, afterRevision, handlers);
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.rev;
  }

  async compact(revision: number): Promise<void> {
    const run = this.compacting.then(() => this.compactTo(revision));
    this.compacting = run.catch(() => undefined);
    return run;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compactRev;
  }

  async healthCheck(): Promise<void> {
    this.assertOpen();
    this.stmt<number>('SELECT 1', true).get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Writes already accepted are committed, synced and acknowledged rather than left hanging.
    this.flush(true);
    this.closed = true;
    // Every commit starts or joins the sync in flight, which runs until nothing committed is left unsynced.
    await this.syncing;
    this.hub.close();
    this.db.close();
    closeSync(this.walFd);
    this.latest.clear();
  }

  /** Queue a write for the next group commit; the promise settles once its transaction has committed (or failed). */
  private enqueue(
    op: PendingWrite['op'],
    key: string,
    value: Uint8Array | undefined,
    expected: number | undefined,
  ): Promise<TxnResult> {
    if (this.closed) return Promise.reject(new Error('storage is closed'));
    if (typeof key !== 'string') return Promise.reject(new TypeError('key must be a string'));
    let copy: Uint8Array | undefined;
    if (op !== 'delete') {
      if (!(value instanceof Uint8Array)) return Promise.reject(new TypeError('value must be a Uint8Array'));
      // A private copy with its own exact-size buffer: the caller may reuse theirs, and Buffer#slice would be a view
      // (often into Node's shared 8 KiB pool, which the in-memory state would then keep alive).
      copy = new Uint8Array(value);
    }
    return new Promise<TxnResult>((resolve, reject) => {
      this.queue.push({ op, key, value: copy, expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flushOnImmediate);
      }
    });
  }

  /**
   * Commit queued writes, `maxBatch` per transaction: one transaction and leave the rest to the next turn (so writes
   * arriving meanwhile join them), or everything now (`all`, on close).
   */
  private flush(all: boolean): void {
    do {
      if (this.closed || this.queue.length === 0) return;
      let batch: PendingWrite[];
      if (this.queue.length <= this.maxBatch) {
        batch = this.queue;
        this.queue = [];
      } else {
        batch = this.queue.splice(0, this.maxBatch);
      }
      this.commit(batch);
    } while (all);
    if (this.queue.length > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flushOnImmediate);
    }
  }

  private commit(batch: PendingWrite[]): void {
    let out: BatchOutcome;
    try {
      out = this.txBatch(batch);
    } catch (err) {
      // Rolled back: nothing changed, nothing is published, every write of the batch fails.
      for (const w of batch) w.reject(err);
      return;
    }
    // Committed: advance memory now; watchers and callers hear of it once the WAL sync covering it returns.
    for (const [key, kv] of out.changes) {
      if (kv) this.latest.set(key, kv);
      else this.latest.delete(key);
    }
    this.rev = out.revision;
    // A failed compare-and-swap wrote nothing: its caller may retry on the state it was given right away.
    for (let i = 0; i < batch.length; i++) if (!out.results[i]!.succeeded) batch[i]!.resolve(out.results[i]!);
    this.unsynced.push({ writes: batch, outcome: out });
    if (!this.syncing) this.syncing = this.syncWal();
  }

  /** Sync the WAL for every committed transaction, one sync after another, until none is left unsynced. */
  private async syncWal(): Promise<void> {
    while (this.unsynced.length > 0) {
      const done = this.unsynced;
      this.unsynced = [];
      const error = await new Promise<unknown>((resolve) => fdatasync(this.walFd, resolve));
      this.acknowledge(done, error ?? undefined);
    }
    this.syncing = undefined;
  }

  /**
   * Synced: notify watchers in revision order, then acknowledge. A failed sync fails the writes it covered (their
   * durability is unknown) while watchers still hear of them: they are committed and visible to reads.
   */
  private acknowledge(done: readonly CommittedBatch[], error: unknown): void {
    for (const { writes, outcome } of done) {
      this.syncedRev = outcome.revision;
      for (const event of outcome.events) this.hub.publish(event);
      for (let i = 0; i < writes.length; i++) {
        const result = outcome.results[i]!;
        if (!result.succeeded) continue; // answered at commit
        if (error) writes[i]!.reject(error);
        else writes[i]!.resolve(result);
      }
    }
  }

  private async compactTo(revision: number): Promise<void> {
    this.assertOpen();
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    while (this.compactRev < revision) {
      const from = this.compactRev;
      const to = Math.min(revision, from + this.compactBatch);
      this.txCompactBatch(from, to);
      this.compactRev = to;
      if (to < revision) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.assertOpen();
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('storage is closed');
  }

  /** Validate a requested read revision and resolve 0/undefined to the current revision. */
  private readRevision(revision: number | undefined): number {
    this.assertOpen();
    if (!revision || revision <= 0) return this.rev;
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    if (revision < this.compactRev) throw new CompactedError(revision, this.compactRev);
    return revision;
  }

  /** A cached prepared statement; `pluck` ones return the first column's value instead of a row object. */
  private stmt<R>(sql: string, pluck = false): Database.Statement<unknown[], R> {
    const id = pluck ? 'pluck:' + sql : sql;
    let s = this.statements.get(id);
    if (!s) {
      s = this.db.prepare(sql);
      if (pluck) s.pluck();
      this.statements.set(id, s);
    }
    return s as Database.Statement<unknown[], R>;
  }

  private readEvents(prefix: string, after: number, max: number): { events: KVEvent[]; through: number } {
    const through = Math.max(after, Math.min(this.syncedRev, after + max));
    if (through <= after) return { events: [], through };
    const rows = this.stEvents.all({ after, through, prefix, end: prefixEnd(prefix) ?? null });
    const events: KVEvent[] = rows.map((r) => {
      const kv: KeyValue = {
        key: r.name,
        value: bytes(r.value),
        createRevision: r.create_revision,
        modRevision: r.id,
      };
      const prevKv: KeyValue | undefined =
        r.p_id !== null && !r.p_deleted && !r.created
          ? { key: r.name, value: bytes(r.p_value), createRevision: r.p_create_revision!, modRevision: r.p_id }
          : undefined;
      return { type: r.deleted ? 'DELETE' : 'PUT', kv, prevKv };
    });
    return { events, through };
  }
}

/** better-sqlite3 returns BLOBs as Buffers; hand out plain Uint8Array views (no copy). */
function bytes(b: Uint8Array | null): Uint8Array {
  if (!b) return new Uint8Array(0);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function toKV(key: string, row: { id: number; create_revision: number; value: Uint8Array | null }): KeyValue {
  return { key, value: bytes(row.value), createRevision: row.create_revision, modRevision: row.id };
}

/**
 * What `latest` keeps of a value: its buffer when the view covers all of it (a write's private copy), else a copy of
 * just its bytes (a view into a larger buffer would keep all of that alive).
 */
function latestOf(value: Uint8Array, createRevision: number, modRevision: number): Latest {
  const whole = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
  return { value: (whole ? value : value.slice()).buffer as ArrayBuffer, createRevision, modRevision };
}

/** A fresh KeyValue of a live key for a caller or watcher: a new view of the (never mutated) kept bytes. */
function keyValue(key: string, cur: Latest): KeyValue {
  return { key, value: new Uint8Array(cur.value), createRevision: cur.createRevision, modRevision: cur.modRevision };
}

/** A fresh KeyValue for a caller or watcher, sharing the (never mutated) value bytes, as the memory engine does. */
function copyKV(kv: KeyValue): KeyValue {
  return { key: kv.key, value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision };
}

/** Make a file's creation or removal in `dir` durable. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
