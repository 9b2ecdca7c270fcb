import Database from 'better-sqlite3';
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
} from '../../../core/storage/kv.js';
import { compareKeys, prefixEnd } from '../keys.js';
import { WatchHub } from '../watch-hub.js';

/**
 * Schema (kine-style revision log):
 *
 * - `kv`: one row per revision. `id` is the revision (AUTOINCREMENT, so ids are never reused and `sqlite_sequence`
 *   remembers the highest revision even when compaction deletes the newest rows). `prev_revision` is the id of the
 *   key's previous row (0 if none; it may be a tombstone). A tombstone (`deleted = 1`) keeps the value the key had.
 * - `kv_current`: the id of the latest row of every live key, so latest-revision gets, ranges and counts never look at
 *   history.
 * - `meta`: the compacted revision (survives restart).
 *
 * Compaction at revision C deletes every row at or below C that is superseded by a row at or below C, and every
 * tombstone at or below C. The state at C itself stays readable. Because every superseded row is the
 * `prev_revision` of its successor, compaction only has to visit the rows in (previous C, C].
 *
 * One process owns the file: the current revision is cached in memory and watch events are fanned out in-process.
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
}

interface Row {
  id: number;
  name: string;
  create_revision: number;
  value: Uint8Array | null;
}

/** What a write transaction produced: the caller's result and, when it committed a revision, the watch event. */
interface Outcome {
  result: TxnResult;
  event?: KVEvent;
}

interface LatestRow {
  id: number;
  create_revision: number;
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

export class SqliteKV implements KVStore {
  private readonly db: Database.Database;
  private readonly hub: WatchHub;
  private readonly statements = new Map<string, Database.Statement>();
  private rev: number;
  private compactRev: number;
  private compacting: Promise<void> = Promise.resolve();
  private closed = false;

  private readonly stGetLatest: Database.Statement<[string], LatestRow>;
  private readonly stGetAt: Database.Statement<[string, number], LatestRow & { deleted: number }>;
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
  private readonly txCreate: (key: string, value: Uint8Array) => Outcome;
  private readonly txUpdate: (key: string, value: Uint8Array, expected: number) => Outcome;
  private readonly txDelete: (key: string, expected: number | undefined) => Outcome;
  private readonly txCompactBatch: (from: number, to: number) => void;

  private readonly compactBatch: number;

  constructor(filePath: string, options: SqliteKVOptions = {}) {
    this.compactBatch = Math.max(1, options.compactBatch ?? 10_000);
    this.db = new Database(filePath);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('busy_timeout = 5000');
      this.db.pragma('temp_store = MEMORY');
      this.db.exec(SCHEMA);
    } catch (err) {
      this.db.close();
      throw err;
    }
    const db = this.db;

    const meta = db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE key = ?');
    this.compactRev = meta.get('compact_rev')?.value ?? 0;
    const seq = db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'kv'").get()?.seq ?? 0;
    const maxId = db.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM kv').get()?.id ?? 0;
    this.rev = Math.max(seq, maxId, this.compactRev);

    this.stGetLatest = db.prepare(
      'SELECT k.id, k.create_revision, k.value FROM kv_current c JOIN kv k ON k.id = c.id WHERE c.name = ?',
    );
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

    this.txCreate = db.transaction((key: string, value: Uint8Array): Outcome => {
      const cur = this.stGetLatest.get(key);
      if (cur) return { result: { succeeded: false, revision: this.rev, current: toKV(key, cur) } };
      const prev = this.stLastId.get(key)?.id ?? 0;
      const rev = this.rev + 1;
      this.stInsert.run(rev, key, 1, 0, rev, prev, value);
      this.stCurrentUpsert.run(key, rev);
      const kv: KeyValue = { key, value, createRevision: rev, modRevision: rev };
      return { result: { succeeded: true, revision: rev, kv }, event: { type: 'PUT', kv } };
    });
    this.txUpdate = db.transaction((key: string, value: Uint8Array, expected: number): Outcome => {
      const cur = this.stGetLatest.get(key);
      if (!cur) return { result: { succeeded: false, revision: this.rev } };
      const prevKv = toKV(key, cur);
      if (cur.id !== expected) return { result: { succeeded: false, revision: this.rev, current: prevKv } };
      const rev = this.rev + 1;
      this.stInsert.run(rev, key, 0, 0, cur.create_revision, cur.id, value);
      this.stCurrentUpsert.run(key, rev);
      const kv: KeyValue = { key, value, createRevision: cur.create_revision, modRevision: rev };
      return { result: { succeeded: true, revision: rev, kv }, event: { type: 'PUT', kv, prevKv } };
    });
    this.txDelete = db.transaction((key: string, expected: number | undefined): Outcome => {
      const cur = this.stGetLatest.get(key);
      if (!cur) return { result: { succeeded: false, revision: this.rev } };
      const prevKv = toKV(key, cur);
      if (expected !== undefined && cur.id !== expected) {
        return { result: { succeeded: false, revision: this.rev, current: prevKv } };
      }
      const rev = this.rev + 1;
      this.stInsert.run(rev, key, 0, 1, cur.create_revision, cur.id, prevKv.value);
      this.stCurrentDelete.run(key);
      return {
        result: { succeeded: true, revision: rev, kv: prevKv },
        event: { type: 'DELETE', kv: { ...prevKv, modRevision: rev }, prevKv },
      };
    });
    this.txCompactBatch = db.transaction((from: number, to: number) => {
      this.stCompactPrev.run(from, to);
      this.stCompactTombstones.run(from, to);
      this.stSetMeta.run('compact_rev', to);
    });

    this.hub = new WatchHub(
      {
        readEvents: (prefix, after, max) => this.readEvents(prefix, after, max),
        currentRevision: () => this.rev,
        compactedRevision: () => this.compactRev,
      },
      Math.max(1, options.replayChunk ?? 1_000),
    );
  }

  async get(key: string, opts?: GetOptions): Promise<GetResult> {
    const at = this.readRevision(opts?.revision);
    if (at === this.rev) {
      const row = this.stGetLatest.get(key);
      return row ? { kv: toKV(key, row), revision: at } : { revision: at };
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

    let rows: Row[];
    let count: number;
    if (at === this.rev) {
      const where = bounds('c.name');
      rows = this.stmt<Row>(
        `SELECT c.name, k.id, k.create_revision, k.value FROM kv_current c JOIN kv k ON k.id = c.id
          WHERE ${where} ORDER BY c.name LIMIT ?`,
      ).all(...params, limit);
      count =
        limit < 0 || rows.length < limit
          ? rows.length
          : this.stmt<{ n: number }>(`SELECT count(*) AS n FROM kv_current c WHERE ${where}`).get(...params)!.n;
    } else {
      // Rows: walk the (name, id) index in key order and keep each key's newest row at `at`, so a page stops after
      // `limit` keys. Count: group the index range by key.
      rows = this.stmt<Row>(
        `SELECT k.name, k.id, k.create_revision, k.value FROM kv k
          WHERE ${bounds('k.name')} AND k.deleted = 0
            AND k.id = (SELECT max(h.id) FROM kv h WHERE h.name = k.name AND h.id <= ?)
          ORDER BY k.name LIMIT ?`,
      ).all(...params, at, limit);
      count =
        limit < 0 || rows.length < limit
          ? rows.length
          : this.stmt<{ n: number }>(
              `SELECT count(*) AS n FROM (SELECT max(id) AS id FROM kv WHERE ${bounds('name')} AND id <= ? GROUP BY name) m
                 JOIN kv k ON k.id = m.id WHERE k.deleted = 0`,
            ).get(...params, at)!.n;
    }
    const kvs = rows.map((r) => toKV(r.name, r));
    return { kvs, revision: at, more: count > kvs.length, count };
  }

  async create(key: string, value: Uint8Array): Promise<TxnResult> {
    this.assertOpen();
    return this.write(this.txCreate(key, value.slice()));
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<TxnResult> {
    this.assertOpen();
    return this.write(this.txUpdate(key, value.slice(), expectedModRevision));
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    this.assertOpen();
    return this.write(this.txDelete(key, expectedModRevision));
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
    this.stmt<{ ok: number }>('SELECT 1 AS ok').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.hub.close();
    this.db.close();
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

  /** Account for a committed write: advance the cached revision and notify watchers. */
  private write({ result, event }: Outcome): TxnResult {
    if (event) {
      this.rev = result.revision;
      this.hub.publish(event);
    }
    return result;
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

  private stmt<R>(sql: string): Database.Statement<unknown[], R> {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as Database.Statement<unknown[], R>;
  }

  private readEvents(prefix: string, after: number, max: number): { events: KVEvent[]; through: number } {
    const through = Math.max(after, Math.min(this.rev, after + max));
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

function toKV(key: string, row: LatestRow): KeyValue {
  return { key, value: bytes(row.value), createRevision: row.create_revision, modRevision: row.id };
}
