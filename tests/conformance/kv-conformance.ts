/**
 * Conformance suite for the storage contract in core/storage/kv.ts. Every storage plugin registers it from its own
 * test file:
 *
 *   kvConformance('sqlite', async () => { const kv = new SqliteKV(file); return { kv, cleanup: () => kv.close() }; });
 *
 * Each test opens its own store. Revisions are asserted relative to the store's revision when the test starts, so a
 * store does not have to start at 0 — but within a test nothing else may write to it.
 */
import test, { type ExecutionContext } from 'ava';
import {
  CompactedError,
  FutureRevisionError,
  type KeyValue,
  type KVEvent,
  type KVStore,
  type KVWatch,
  type RangeResult,
  type TxnResult,
} from '../../core/contracts/kv-store.js';

export type OpenStore = () => Promise<{ kv: KVStore; cleanup: () => Promise<void> }>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const b = (s: string): Uint8Array => encoder.encode(s);

/** A KeyValue with its value decoded, for exact deepEqual comparisons. */
interface KV {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
}
interface Ev {
  type: 'PUT' | 'DELETE';
  kv: KV;
  prevKv?: KV;
}

function kvOf(kv: KeyValue): KV {
  return {
    key: kv.key,
    value: decoder.decode(kv.value),
    createRevision: kv.createRevision,
    modRevision: kv.modRevision,
  };
}

function kvsOf(kvs: KeyValue[]): KV[] {
  return kvs.map(kvOf);
}

function evOf(e: KVEvent): Ev {
  const out: Ev = { type: e.type, kv: kvOf(e.kv) };
  if (e.prevKv) out.prevKv = kvOf(e.prevKv);
  return out;
}

function txnOf(r: TxnResult): { succeeded: boolean; revision: number; kv?: KV; current?: KV } {
  const out: { succeeded: boolean; revision: number; kv?: KV; current?: KV } = {
    succeeded: r.succeeded,
    revision: r.revision,
  };
  if (r.succeeded && r.kv) out.kv = kvOf(r.kv);
  if (!r.succeeded && r.current) out.current = kvOf(r.current);
  return out;
}

function rangeOf(r: RangeResult): { kvs: KV[]; revision: number; more: boolean; count: number } {
  return { kvs: kvsOf(r.kvs), revision: r.revision, more: r.more, count: r.count };
}

const kv = (key: string, value: string, createRevision: number, modRevision: number): KV => ({
  key,
  value,
  createRevision,
  modRevision,
});

function ok(r: TxnResult): TxnResult & { succeeded: true } {
  if (!r.succeeded) throw new Error(`write unexpectedly failed: ${JSON.stringify(txnOf(r))}`);
  return r;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Collects everything a watch delivers and lets a test wait for a condition on it. */
class Collector {
  readonly events: KVEvent[] = [];
  readonly batches: KVEvent[][] = [];
  readonly errors: Error[] = [];
  readonly progress: number[] = [];
  readonly watch: KVWatch;
  private waiters: Array<() => void> = [];

  constructor(
    store: KVStore,
    prefix: string,
    afterRevision: number,
    private readonly onBatch?: (events: KVEvent[], self: Collector) => void,
  ) {
    this.watch = store.watch(prefix, afterRevision, {
      onEvents: (events) => {
        this.batches.push(events);
        this.events.push(...events);
        this.onBatch?.(events, this);
        this.wake();
      },
      onError: (err) => {
        this.errors.push(err);
        this.wake();
      },
      onProgress: (revision) => {
        this.progress.push(revision);
      },
    });
  }

  get lastRevision(): number {
    return this.events.length ? this.events[this.events.length - 1]!.kv.modRevision : 0;
  }

  /** Resolve once `cond()` holds (checked after every delivery); reject after `timeoutMs`. */
  until(cond: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(
          new Error(
            `timed out waiting for ${what}; got ${this.events.length} events (last revision ${this.lastRevision}), ` +
              `errors: ${this.errors.map((e) => e.message).join('; ') || 'none'}`,
          ),
        );
      }, timeoutMs);
      const check = () => {
        if (!cond()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  untilRevision(revision: number): Promise<void> {
    return this.until(() => this.lastRevision >= revision || this.errors.length > 0, `revision ${revision}`);
  }

  untilError(): Promise<void> {
    return this.until(() => this.errors.length > 0, 'an error');
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** Asserts the exact event sequence and that deliveries were non-empty, ordered batches. */
function assertEvents(t: ExecutionContext, c: Collector, expected: Ev[], label: string): void {
  t.deepEqual(c.errors, [], `${label}: no errors`);
  t.deepEqual(c.events.map(evOf), expected, `${label}: exact events`);
  t.true(
    c.batches.every((batch) => batch.length > 0),
    `${label}: no empty batches`,
  );
  const revs = c.events.map((e) => e.kv.modRevision);
  t.true(
    revs.every((r, i) => i === 0 || r > revs[i - 1]!),
    `${label}: strictly increasing revisions`,
  );
}

/** Reference model of expected watch events, fed from write results. */
class Model {
  readonly events: Ev[] = [];
  private readonly live = new Map<string, KV>();

  apply(type: 'PUT' | 'DELETE', key: string, r: TxnResult): void {
    const res = ok(r);
    const prev = this.live.get(key);
    if (type === 'DELETE') {
      const last = prev!;
      this.live.delete(key);
      this.events.push({ type, kv: { ...last, modRevision: res.revision }, prevKv: last });
      return;
    }
    const next = kvOf(res.kv!);
    this.live.set(key, next);
    this.events.push(prev ? { type, kv: next, prevKv: prev } : { type, kv: next });
  }

  get(key: string): KV | undefined {
    return this.live.get(key);
  }

  after(revision: number, prefix: string): Ev[] {
    return this.events
      .filter((e) => e.kv.modRevision > revision && e.kv.key.startsWith(prefix))
      .sort((x, y) => x.kv.modRevision - y.kv.modRevision);
  }
}

/** Drives a mix of creates, updates and deletes over `keys`, `concurrency` writes on distinct keys at a time. */
/** Polls `cond` every 5 ms; rejects after 5 s. */
async function waitUntil(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function churn(store: KVStore, model: Model, keys: string[], writes: number, tag: string): Promise<void> {
  let n = 0;
  let round = 0;
  while (n < writes) {
    const batch = keys.slice(0, Math.min(keys.length, writes - n));
    await Promise.all(
      batch.map(async (key, i) => {
        const cur = model.get(key);
        if (!cur) {
          const r = await store.create(key, b(`${tag}-${round}-${i}`));
          model.apply('PUT', key, r);
        } else if ((round + i) % 3 === 2) {
          const r = await store.delete(key, cur.modRevision);
          model.apply('DELETE', key, r);
        } else {
          const r = await store.update(key, b(`${tag}-${round}-${i}`), cur.modRevision);
          model.apply('PUT', key, r);
        }
      }),
    );
    n += batch.length;
    round++;
    if (round % 3 === 0) await tick();
  }
}

export function kvConformance(name: string, open: OpenStore): void {
  const it = (title: string, fn: (t: ExecutionContext, store: KVStore) => Promise<void>) =>
    test(`${name}: ${title}`, async (t) => {
      const { kv: store, cleanup } = await open();
      try {
        await fn(t, store);
      } finally {
        await cleanup();
      }
    });

  it('revisions increase by exactly one per successful write and never on a failed one', async (t, s) => {
    const r0 = await s.currentRevision();
    t.true(Number.isInteger(r0) && r0 >= 0, `initial revision ${r0}`);

    t.deepEqual(txnOf(await s.create('/t/a', b('a1'))), {
      succeeded: true,
      revision: r0 + 1,
      kv: kv('/t/a', 'a1', r0 + 1, r0 + 1),
    });
    t.deepEqual(txnOf(await s.create('/t/b', b('b1'))), {
      succeeded: true,
      revision: r0 + 2,
      kv: kv('/t/b', 'b1', r0 + 2, r0 + 2),
    });
    t.deepEqual(txnOf(await s.update('/t/a', b('a2'), r0 + 1)), {
      succeeded: true,
      revision: r0 + 3,
      kv: kv('/t/a', 'a2', r0 + 1, r0 + 3),
    });
    t.deepEqual(txnOf(await s.delete('/t/b')), {
      succeeded: true,
      revision: r0 + 4,
      kv: kv('/t/b', 'b1', r0 + 2, r0 + 2),
    });
    t.is(await s.currentRevision(), r0 + 4);

    // Failed comparisons do not consume a revision.
    t.false((await s.create('/t/a', b('x'))).succeeded);
    t.false((await s.update('/t/a', b('x'), r0 + 1)).succeeded);
    t.false((await s.delete('/t/a', r0 + 1)).succeeded);
    t.false((await s.delete('/t/b')).succeeded);
    t.false((await s.update('/t/b', b('x'), r0 + 2)).succeeded);
    t.is(await s.currentRevision(), r0 + 4);

    t.deepEqual(txnOf(await s.create('/t/c', b('c1'))), {
      succeeded: true,
      revision: r0 + 5,
      kv: kv('/t/c', 'c1', r0 + 5, r0 + 5),
    });

    const a = await s.get('/t/a');
    t.deepEqual(a.kv && kvOf(a.kv), kv('/t/a', 'a2', r0 + 1, r0 + 3));
    t.is(a.revision, r0 + 5);
    const gone = await s.get('/t/b');
    t.is(gone.kv, undefined);
    t.is(gone.revision, r0 + 5);
    t.is(await s.currentRevision(), r0 + 5);
    await t.notThrowsAsync(s.healthCheck());
  });

  it('create-if-absent conflicts and returns the current value', async (t, s) => {
    const r = ok(await s.create('/c/x', b('first'))).revision;
    t.deepEqual(txnOf(await s.create('/c/x', b('second'))), {
      succeeded: false,
      revision: r,
      current: kv('/c/x', 'first', r, r),
    });
    const got = await s.get('/c/x');
    t.deepEqual(got.kv && kvOf(got.kv), kv('/c/x', 'first', r, r));
    // A different key with the same prefix is unaffected.
    t.deepEqual(txnOf(await s.create('/c/xy', b('other'))), {
      succeeded: true,
      revision: r + 1,
      kv: kv('/c/xy', 'other', r + 1, r + 1),
    });
  });

  it('update with a stale modRevision fails and returns the current value', async (t, s) => {
    const c = ok(await s.create('/u/x', b('v1'))).revision;
    const u = ok(await s.update('/u/x', b('v2'), c)).revision;
    t.is(u, c + 1);
    t.deepEqual(txnOf(await s.update('/u/x', b('v3'), c)), {
      succeeded: false,
      revision: u,
      current: kv('/u/x', 'v2', c, u),
    });
    t.deepEqual(txnOf(await s.update('/u/x', b('v3'), u + 10)), {
      succeeded: false,
      revision: u,
      current: kv('/u/x', 'v2', c, u),
    });
    t.deepEqual(txnOf(await s.update('/u/x', b('v3'), 0)), {
      succeeded: false,
      revision: u,
      current: kv('/u/x', 'v2', c, u),
    });
    // A key that does not exist: no current value.
    const missing = await s.update('/u/missing', b('v'), c);
    t.deepEqual(txnOf(missing), { succeeded: false, revision: u });
    t.false(!missing.succeeded && missing.current !== undefined);
    // A deleted key: no current value either.
    const d = ok(await s.delete('/u/x', u)).revision;
    const afterDelete = await s.update('/u/x', b('v4'), u);
    t.deepEqual(txnOf(afterDelete), { succeeded: false, revision: d });
    t.false(!afterDelete.succeeded && afterDelete.current !== undefined);
    const got = await s.get('/u/x');
    t.is(got.kv, undefined);
  });

  it('delete with a stale modRevision fails; a successful delete returns the deleted value', async (t, s) => {
    const c = ok(await s.create('/d/x', b('v1'))).revision;
    const u = ok(await s.update('/d/x', b('v2'), c)).revision;
    t.deepEqual(txnOf(await s.delete('/d/x', c)), {
      succeeded: false,
      revision: u,
      current: kv('/d/x', 'v2', c, u),
    });
    t.deepEqual(txnOf(await s.delete('/d/x', u)), {
      succeeded: true,
      revision: u + 1,
      kv: kv('/d/x', 'v2', c, u),
    });
    t.deepEqual(txnOf(await s.delete('/d/x', u)), { succeeded: false, revision: u + 1 });
    t.deepEqual(txnOf(await s.delete('/d/x')), { succeeded: false, revision: u + 1 });
    t.deepEqual(txnOf(await s.delete('/d/never')), { succeeded: false, revision: u + 1 });
    t.is(await s.currentRevision(), u + 1);
  });

  it('binary and empty values round-trip through get, range and watch', async (t, s) => {
    const r0 = await s.currentRevision();
    const bin = new Uint8Array([0, 255, 128, 0, 10, 13]);
    const c = new Collector(s, '/bin/', r0);
    ok(await s.create('/bin/a', bin));
    ok(await s.create('/bin/empty', new Uint8Array(0)));
    const a = await s.get('/bin/a');
    t.deepEqual([...a.kv!.value], [...bin]);
    const e = await s.get('/bin/empty');
    t.truthy(e.kv);
    t.is(e.kv!.value.length, 0);
    const list = await s.range('/bin/');
    t.deepEqual(
      list.kvs.map((x) => [x.key, [...x.value]]),
      [
        ['/bin/a', [...bin]],
        ['/bin/empty', []],
      ],
    );
    await c.untilRevision(r0 + 2);
    c.watch.cancel();
    t.deepEqual(
      c.events.map((x) => [x.kv.key, [...x.kv.value]]),
      [
        ['/bin/a', [...bin]],
        ['/bin/empty', []],
      ],
    );
    // The store must not keep a reference to the caller's buffer.
    const mutable = new Uint8Array([1, 2, 3]);
    ok(await s.create('/bin/m', mutable));
    mutable[0] = 99;
    t.deepEqual([...(await s.get('/bin/m')).kv!.value], [1, 2, 3]);
  });

  it('get and range at past revisions return the state as of that revision', async (t, s) => {
    const r1 = ok(await s.create('/h/a', b('a1'))).revision;
    const r2 = ok(await s.create('/h/b', b('b1'))).revision;
    const r3 = ok(await s.update('/h/a', b('a2'), r1)).revision;
    const r4 = ok(await s.delete('/h/b', r2)).revision;
    const r5 = ok(await s.create('/h/c', b('c1'))).revision;
    const r6 = ok(await s.delete('/h/a')).revision;
    const r7 = ok(await s.create('/h/a', b('a3'))).revision;
    const r8 = ok(await s.create('/other/z', b('z'))).revision;
    t.deepEqual([r2, r3, r4, r5, r6, r7, r8], [r1 + 1, r1 + 2, r1 + 3, r1 + 4, r1 + 5, r1 + 6, r1 + 7]);

    const getAt = async (key: string, revision: number) => {
      const g = await s.get(key, { revision });
      t.is(g.revision, revision, `get ${key}@${revision} served at ${revision}`);
      return g.kv ? kvOf(g.kv) : undefined;
    };
    t.deepEqual(await getAt('/h/a', r1), kv('/h/a', 'a1', r1, r1));
    t.deepEqual(await getAt('/h/a', r2), kv('/h/a', 'a1', r1, r1));
    t.deepEqual(await getAt('/h/a', r3), kv('/h/a', 'a2', r1, r3));
    t.deepEqual(await getAt('/h/a', r5), kv('/h/a', 'a2', r1, r3));
    t.is(await getAt('/h/a', r6), undefined);
    t.deepEqual(await getAt('/h/a', r7), kv('/h/a', 'a3', r7, r7));
    t.is(await getAt('/h/b', r1), undefined);
    t.deepEqual(await getAt('/h/b', r3), kv('/h/b', 'b1', r2, r2));
    t.is(await getAt('/h/b', r4), undefined);
    t.is(await getAt('/h/b', r8), undefined);

    const rangeAt = async (revision: number) => rangeOf(await s.range('/h/', { revision }));
    const all = (revision: number, kvs: KV[]) => ({ kvs, revision, more: false, count: kvs.length });
    t.deepEqual(await rangeAt(r1), all(r1, [kv('/h/a', 'a1', r1, r1)]));
    t.deepEqual(await rangeAt(r2), all(r2, [kv('/h/a', 'a1', r1, r1), kv('/h/b', 'b1', r2, r2)]));
    t.deepEqual(await rangeAt(r3), all(r3, [kv('/h/a', 'a2', r1, r3), kv('/h/b', 'b1', r2, r2)]));
    t.deepEqual(await rangeAt(r4), all(r4, [kv('/h/a', 'a2', r1, r3)]));
    t.deepEqual(await rangeAt(r5), all(r5, [kv('/h/a', 'a2', r1, r3), kv('/h/c', 'c1', r5, r5)]));
    t.deepEqual(await rangeAt(r6), all(r6, [kv('/h/c', 'c1', r5, r5)]));
    t.deepEqual(await rangeAt(r7), all(r7, [kv('/h/a', 'a3', r7, r7), kv('/h/c', 'c1', r5, r5)]));
    t.deepEqual(await rangeAt(r8), all(r8, [kv('/h/a', 'a3', r7, r7), kv('/h/c', 'c1', r5, r5)]));
    t.deepEqual(
      rangeOf(await s.range('/h/')),
      all(r8, [kv('/h/a', 'a3', r7, r7), kv('/h/c', 'c1', r5, r5)]),
    );
    // Paging options apply to past revisions too.
    t.deepEqual(rangeOf(await s.range('/h/', { revision: r5, limit: 1 })), {
      kvs: [kv('/h/a', 'a2', r1, r3)],
      revision: r5,
      more: true,
      count: 2,
    });
    t.deepEqual(rangeOf(await s.range('/h/', { revision: r5, limit: 1, startAfterKey: '/h/a' })), {
      kvs: [kv('/h/c', 'c1', r5, r5)],
      revision: r5,
      more: false,
      count: 1,
    });
  });

  it('delete then re-create starts a new createRevision', async (t, s) => {
    const c1 = ok(await s.create('/rc/x', b('v1'))).revision;
    const u1 = ok(await s.update('/rc/x', b('v2'), c1)).revision;
    const d = ok(await s.delete('/rc/x', u1)).revision;
    const c2r = ok(await s.create('/rc/x', b('v3')));
    t.deepEqual(txnOf(c2r), { succeeded: true, revision: d + 1, kv: kv('/rc/x', 'v3', d + 1, d + 1) });
    const c2 = c2r.revision;
    // The old modRevision does not match the new incarnation.
    t.deepEqual(txnOf(await s.update('/rc/x', b('x'), u1)), {
      succeeded: false,
      revision: c2,
      current: kv('/rc/x', 'v3', c2, c2),
    });
    t.deepEqual(txnOf(await s.update('/rc/x', b('v4'), c2)), {
      succeeded: true,
      revision: c2 + 1,
      kv: kv('/rc/x', 'v4', c2, c2 + 1),
    });
    const old = await s.get('/rc/x', { revision: u1 });
    t.deepEqual(old.kv && kvOf(old.kv), kv('/rc/x', 'v2', c1, u1));
    t.is((await s.get('/rc/x', { revision: d })).kv, undefined);
  });

  it('range pages at a fixed revision stay consistent while writes happen between pages', async (t, s) => {
    const key = (i: number) => `/p/k${String(i).padStart(2, '0')}`;
    const created: KV[] = [];
    for (let i = 0; i < 25; i++) created.push(kvOf(ok(await s.create(key(i), b(`v${i}`))).kv!));
    ok(await s.create('/q/outside', b('x')));
    const R = await s.currentRevision();

    const page1 = rangeOf(await s.range('/p/', { limit: 10 }));
    t.deepEqual(page1, { kvs: created.slice(0, 10), revision: R, more: true, count: 25 });

    // Writes between pages, some of them landing inside later pages.
    ok(await s.update(key(15), b('changed'), created[15]!.modRevision));
    ok(await s.delete(key(12)));
    ok(await s.create('/p/k105', b('new')));
    ok(await s.create('/p/k99', b('new')));
    ok(await s.delete(key(3)));
    ok(await s.delete(key(24)));
    const R2 = await s.currentRevision();
    t.is(R2, R + 6);

    const page2 = rangeOf(await s.range('/p/', { limit: 10, startAfterKey: key(9), revision: R }));
    t.deepEqual(page2, { kvs: created.slice(10, 20), revision: R, more: true, count: 15 });
    const page3 = rangeOf(await s.range('/p/', { limit: 10, startAfterKey: key(19), revision: R }));
    t.deepEqual(page3, { kvs: created.slice(20, 25), revision: R, more: false, count: 5 });
    // Exactly `limit` keys left: more is false.
    const exact = rangeOf(await s.range('/p/', { limit: 5, startAfterKey: key(19), revision: R }));
    t.deepEqual(exact, { kvs: created.slice(20, 25), revision: R, more: false, count: 5 });
    const past = rangeOf(await s.range('/p/', { startAfterKey: key(24), revision: R }));
    t.deepEqual(past, { kvs: [], revision: R, more: false, count: 0 });
    // No limit (0) returns everything.
    t.deepEqual(rangeOf(await s.range('/p/', { revision: R, limit: 0 })), {
      kvs: created,
      revision: R,
      more: false,
      count: 25,
    });
    // A startAfterKey that sorts before the prefix does not widen the range.
    t.deepEqual(rangeOf(await s.range('/p/', { revision: R, startAfterKey: '/a', limit: 2 })), {
      kvs: created.slice(0, 2),
      revision: R,
      more: true,
      count: 25,
    });

    // The latest state reflects the writes, paged the same way.
    const latestKeys: string[] = [];
    let after: string | undefined;
    let pages = 0;
    let counts: number[] = [];
    for (;;) {
      const page = await s.range('/p/', { limit: 7, startAfterKey: after });
      t.is(page.revision, R2);
      counts.push(page.count);
      latestKeys.push(...page.kvs.map((x) => x.key));
      pages++;
      if (!page.more) break;
      after = page.kvs[page.kvs.length - 1]!.key;
    }
    const expectedKeys = [
      ...created.map((x) => x.key).filter((k) => k !== key(12) && k !== key(3) && k !== key(24)),
      '/p/k105',
      '/p/k99',
    ].sort();
    t.deepEqual(latestKeys, expectedKeys);
    t.is(pages, 4);
    t.deepEqual(counts, [24, 17, 10, 3]);
    const k15 = await s.get(key(15));
    t.deepEqual(k15.kv && kvOf(k15.kv), kv(key(15), 'changed', created[15]!.createRevision, R + 1));
  });

  it('prefixes are isolated and keys are ordered by UTF-8 bytes', async (t, s) => {
    const keys = [
      '/a',
      '/a.',
      '/a/',
      '/a/x',
      '/a/y/z',
      '/a/~',
      '/a/\u00e9',
      '/a/\uFFFD',
      '/a/\u{1F600}',
      '/a0',
      '/ab',
    ];
    // Insert in a scrambled order.
    for (const k of [...keys].reverse()) ok(await s.create(k, b(k)));
    const keysOf = async (prefix: string, opts = {}) => (await s.range(prefix, opts)).kvs.map((x) => x.key);

    // UTF-8 byte order: U+FFFD (EF BF BD) sorts before U+1F600 (F0 9F 98 80), unlike UTF-16 code unit order.
    const underA = ['/a/', '/a/x', '/a/y/z', '/a/~', '/a/\u00e9', '/a/\uFFFD', '/a/\u{1F600}'];
    t.deepEqual(await keysOf('/a/'), underA);
    t.is((await s.range('/a/')).count, underA.length);
    t.deepEqual(await keysOf('/a'), ['/a', '/a.', ...underA, '/a0', '/ab']);
    t.deepEqual(await keysOf('/ab'), ['/ab']);
    t.deepEqual(await keysOf('/a/y'), ['/a/y/z']);
    t.deepEqual(await keysOf('/a/\u00e9'), ['/a/\u00e9']);
    t.deepEqual(await keysOf('/a/\uFFFD'), ['/a/\uFFFD']);
    t.deepEqual(await keysOf('/b'), []);
    t.deepEqual(await keysOf(''), ['/a', '/a.', ...underA, '/a0', '/ab']);

    // Paging one key at a time follows the same order.
    const paged: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await s.range('/a/', { limit: 1, startAfterKey: after });
      paged.push(...page.kvs.map((x) => x.key));
      if (!page.more) break;
      after = page.kvs[0]!.key;
    }
    t.deepEqual(paged, underA);
    t.deepEqual(await keysOf('/a/', { startAfterKey: '/a/~' }), ['/a/\u00e9', '/a/\uFFFD', '/a/\u{1F600}']);
    t.deepEqual(await keysOf('/a/', { startAfterKey: '/a/\uFFFD' }), ['/a/\u{1F600}']);

    // The same holds at a past revision.
    const r = await s.currentRevision();
    ok(await s.create('/a/zz', b('later')));
    t.deepEqual(await keysOf('/a/', { revision: r }), underA);

    // And for watches.
    const c = new Collector(s, '/a/', 0);
    await c.untilRevision(r + 1);
    c.watch.cancel();
    t.deepEqual(c.events.map((e) => e.kv.key).sort(), [...underA, '/a/zz'].sort());
  });

  it('a watch from a past revision replays history, then goes live, without gaps or duplicates', async (t, s) => {
    const model = new Model();
    const keys = Array.from({ length: 10 }, (_, i) => `/w/k${i}`);
    const noise = Array.from({ length: 3 }, (_, i) => `/wx/n${i}`);
    // History longer than any reasonable replay chunk.
    await churn(s, model, keys, 1200, 'pre');
    await churn(s, model, noise, 60, 'noise-pre');
    const start = (await s.currentRevision()) - 700;

    const c = new Collector(s, '/w/', start);
    const fromNow = new Collector(s, '/w/', await s.currentRevision());
    // 500 more writes (and some outside the prefix) while the watch is catching up.
    await Promise.all([churn(s, model, keys, 500, 'live'), churn(s, model, noise, 90, 'noise-live')]);
    const last = await s.currentRevision();
    const lastW = model.after(0, '/w/').at(-1)!.kv.modRevision;
    await c.untilRevision(lastW);
    await fromNow.untilRevision(lastW);
    await sleep(30);
    c.watch.cancel();
    fromNow.watch.cancel();

    const expected = model.after(start, '/w/');
    t.true(expected.length > 1000, `expected ${expected.length} events`);
    assertEvents(t, c, expected, 'replay+live');
    t.true(c.progress.every((p) => p <= last));
    assertEvents(t, fromNow, model.after(start + 700, '/w/'), 'live only');
    t.is(fromNow.events.length, 500);
  });

  it('watch events carry values: deletes carry the last value, updates the previous one', async (t, s) => {
    const r0 = await s.currentRevision();
    const c = ok(await s.create('/e/x', b('v1'))).revision;
    const u = ok(await s.update('/e/x', b('v2'), c)).revision;
    const live = new Collector(s, '/e/', u);
    const d = ok(await s.delete('/e/x', u)).revision;
    const c2 = ok(await s.create('/e/x', b('v3'))).revision;
    const replay = new Collector(s, '/e/', r0);
    await live.untilRevision(c2);
    await replay.untilRevision(c2);
    live.watch.cancel();
    replay.watch.cancel();
    const all: Ev[] = [
      { type: 'PUT', kv: kv('/e/x', 'v1', c, c) },
      { type: 'PUT', kv: kv('/e/x', 'v2', c, u), prevKv: kv('/e/x', 'v1', c, c) },
      { type: 'DELETE', kv: kv('/e/x', 'v2', c, d), prevKv: kv('/e/x', 'v2', c, u) },
      { type: 'PUT', kv: kv('/e/x', 'v3', c2, c2) },
    ];
    assertEvents(t, replay, all, 'replayed');
    assertEvents(t, live, all.slice(2), 'live');
  });

  it('several watchers with different prefixes and start revisions each get their exact sequence', async (t, s) => {
    const model = new Model();
    const r0 = await s.currentRevision();
    await churn(s, model, ['/m/a/1', '/m/a/2', '/m/b/1', '/n/1'], 40, 'pre');
    const mid = await s.currentRevision();
    const specs: Array<[string, number]> = [
      ['/m/', r0],
      ['/m/a/', r0],
      ['/m/b/', mid],
      ['/m/', mid],
      ['', mid - 5],
      ['/n/', r0 + 7],
      ['/zzz/', r0],
    ];
    const watchers = specs.map(([p, from]) => new Collector(s, p, from));
    await churn(s, model, ['/m/a/1', '/m/a/2', '/m/b/1', '/n/1', '/m/a/3'], 100, 'live');
    const last = await s.currentRevision();
    for (const [i, [p]] of specs.entries()) {
      const exp = model.after(0, p);
      if (exp.length) await watchers[i]!.untilRevision(exp.at(-1)!.kv.modRevision);
    }
    await sleep(30);
    for (const w of watchers) w.watch.cancel();
    for (const [i, [p, from]] of specs.entries()) {
      assertEvents(t, watchers[i]!, model.after(from, p), `watch ${p || '(all)'} after ${from}`);
    }
    t.is(watchers[6]!.events.length, 0);
    t.is(watchers[4]!.events.at(-1)!.kv.modRevision, last);
  });

  it('a watch delivers writes made from inside its own handler', async (t, s) => {
    const r0 = await s.currentRevision();
    ok(await s.create('/r/trigger-1', b('t')));
    const echoes: Promise<TxnResult>[] = [];
    const c = new Collector(s, '/r/', r0, (events) => {
      for (const e of events) {
        if (e.kv.key.startsWith('/r/trigger')) echoes.push(s.create(`/r/echo-${e.kv.key.slice(3)}`, b('e')));
      }
    });
    await c.untilRevision(r0 + 2);
    ok(await s.create('/r/trigger-2', b('t')));
    await c.untilRevision(r0 + 4);
    await sleep(20);
    c.watch.cancel();
    for (const e of await Promise.all(echoes)) ok(e);
    t.deepEqual(
      c.events.map((e) => [e.kv.key, e.kv.modRevision]),
      [
        ['/r/trigger-1', r0 + 1],
        ['/r/echo-trigger-1', r0 + 2],
        ['/r/trigger-2', r0 + 3],
        ['/r/echo-trigger-2', r0 + 4],
      ],
    );
    t.deepEqual(c.errors, []);
  });

  it('cancel stops delivery', async (t, s) => {
    const r0 = await s.currentRevision();
    const c = new Collector(s, '/x/', r0);
    ok(await s.create('/x/1', b('1')));
    await c.untilRevision(r0 + 1);
    c.watch.cancel();
    c.watch.cancel(); // idempotent
    for (let i = 2; i <= 6; i++) ok(await s.create(`/x/${i}`, b(String(i))));
    // Cancelled before anything was delivered, including during replay.
    const early = new Collector(s, '/x/', r0);
    early.watch.cancel();
    // Cancelled from inside its first batch.
    const self = new Collector(s, '/x/', r0, (_events, me) => me.watch.cancel());
    await sleep(50);
    for (let i = 7; i <= 9; i++) ok(await s.create(`/x/${i}`, b(String(i))));
    await sleep(50);
    t.deepEqual(
      c.events.map((e) => e.kv.key),
      ['/x/1'],
    );
    t.deepEqual(c.errors, []);
    t.deepEqual(early.events, []);
    t.deepEqual(early.errors, []);
    t.is(self.batches.length, 1);
    t.deepEqual(self.errors, []);
    t.is(self.events[0]!.kv.key, '/x/1');
  });

  it('a watch from a future revision only delivers later events', async (t, s) => {
    const r = await s.currentRevision();
    const c = new Collector(s, '/f/', r + 3);
    for (let i = 1; i <= 5; i++) ok(await s.create(`/f/${i}`, b(String(i))));
    await c.untilRevision(r + 5);
    await sleep(20);
    c.watch.cancel();
    t.deepEqual(
      c.events.map((e) => [e.kv.key, e.kv.modRevision]),
      [
        ['/f/4', r + 4],
        ['/f/5', r + 5],
      ],
    );
    t.deepEqual(c.errors, []);
  });

  it('a live watch gets progress notifications when writes outside its prefix advance the revision', async (t, s) => {
    const c = new Collector(s, '/quiet/', await s.currentRevision());
    await waitUntil(() => c.progress.length > 0, 'the caught-up notification');
    ok(await s.create('/elsewhere/1', b('1')));
    const r = (await s.create('/elsewhere/2', b('2'))).revision;
    await waitUntil(() => c.progress.some((p) => p >= r), `progress to ${r}`);
    c.watch.cancel();
    t.deepEqual(c.events, []);
    t.deepEqual([...c.progress].sort((x, y) => x - y), c.progress, 'progress never goes back');
  });

  it('reads beyond the current revision throw FutureRevisionError', async (t, s) => {
    ok(await s.create('/fr/a', b('a')));
    const cur = await s.currentRevision();
    const g = await t.throwsAsync(s.get('/fr/a', { revision: cur + 1 }), { instanceOf: FutureRevisionError });
    t.is(g?.requestedRevision, cur + 1);
    t.is(g?.currentRevision, cur);
    const r = await t.throwsAsync(s.range('/fr/', { revision: cur + 10 }), { instanceOf: FutureRevisionError });
    t.is(r?.requestedRevision, cur + 10);
    t.is(r?.currentRevision, cur);
    await t.throwsAsync(s.compact(cur + 1), { instanceOf: FutureRevisionError });
    t.is(await s.compactedRevision(), 0);
    // The current revision itself is readable.
    const at = await s.get('/fr/a', { revision: cur });
    t.is(at.revision, cur);
    t.is(decoder.decode(at.kv!.value), 'a');
  });

  it('compaction removes old revisions from reads and watches; the latest state is intact', async (t, s) => {
    t.is(await s.compactedRevision(), 0);
    const r1 = ok(await s.create('/k/a', b('a1'))).revision;
    const r2 = ok(await s.update('/k/a', b('a2'), r1)).revision;
    const r3 = ok(await s.create('/k/b', b('b1'))).revision;
    const r4 = ok(await s.delete('/k/b', r3)).revision;
    const r5 = ok(await s.update('/k/a', b('a3'), r2)).revision;
    const r6 = ok(await s.create('/k/d', b('d1'))).revision;
    const C = r5;
    await s.compact(C);
    t.is(await s.compactedRevision(), C);
    t.is(await s.currentRevision(), r6, 'compaction does not change the revision');

    for (const rev of [r2, r3, r4]) {
      const g = await t.throwsAsync(s.get('/k/a', { revision: rev }), { instanceOf: CompactedError });
      t.is(g?.requestedRevision, rev);
      t.is(g?.compactedRevision, C);
      const r = await t.throwsAsync(s.range('/k/', { revision: rev }), { instanceOf: CompactedError });
      t.is(r?.compactedRevision, C);
    }
    // The compacted revision itself still reads the state as of that revision.
    const atC = await s.get('/k/a', { revision: C });
    t.deepEqual(atC.kv && kvOf(atC.kv), kv('/k/a', 'a3', r1, r5));
    t.deepEqual(rangeOf(await s.range('/k/', { revision: C })), {
      kvs: [kv('/k/a', 'a3', r1, r5)],
      revision: C,
      more: false,
      count: 1,
    });
    t.deepEqual(rangeOf(await s.range('/k/')), {
      kvs: [kv('/k/a', 'a3', r1, r5), kv('/k/d', 'd1', r6, r6)],
      revision: r6,
      more: false,
      count: 2,
    });
    t.is((await s.get('/k/b')).kv, undefined);

    // Watching from before the compacted revision fails; from it onward works.
    const stale = new Collector(s, '/k/', r1);
    const fresh = new Collector(s, '/k/', C);
    await stale.untilError();
    t.is(stale.errors.length, 1);
    t.true(stale.errors[0] instanceof CompactedError, String(stale.errors[0]));
    t.is((stale.errors[0] as CompactedError).compactedRevision, C);
    t.deepEqual(stale.events, []);

    // Writes keep working on compacted keys, including re-creating a key whose tombstone was compacted.
    const r7 = ok(await s.create('/k/b', b('b2'))).revision;
    const r8 = ok(await s.update('/k/a', b('a4'), r5)).revision;
    t.is(r7, r6 + 1);
    t.is(r8, r6 + 2);
    await fresh.untilRevision(r8);
    fresh.watch.cancel();
    assertEvents(t, fresh, [
      { type: 'PUT', kv: kv('/k/d', 'd1', r6, r6) },
      { type: 'PUT', kv: kv('/k/b', 'b2', r7, r7) },
      { type: 'PUT', kv: kv('/k/a', 'a4', r1, r8), prevKv: kv('/k/a', 'a3', r1, r5) },
    ], 'watch from the compacted revision');
    await sleep(20);
    t.is(stale.errors.length, 1, 'no events or errors after the compaction error');
    t.deepEqual(stale.events, []);

    // Compacting at the current revision, right after a delete, must not move the revision backwards.
    const r9 = ok(await s.delete('/k/d')).revision;
    await s.compact(r9);
    t.is(await s.compactedRevision(), r9);
    t.is(await s.currentRevision(), r9);
    t.deepEqual(
      (await s.range('/k/', { revision: r9 })).kvs.map((x) => x.key),
      ['/k/a', '/k/b'],
    );
    await t.throwsAsync(s.get('/k/a', { revision: r8 }), { instanceOf: CompactedError });
    t.is(ok(await s.create('/k/e', b('e1'))).revision, r9 + 1);
    t.deepEqual(
      (await s.range('/k/')).kvs.map((x) => [x.key, decoder.decode(x.value), x.createRevision, x.modRevision]),
      [
        ['/k/a', 'a4', r1, r8],
        ['/k/b', 'b2', r7, r7],
        ['/k/e', 'e1', r9 + 1, r9 + 1],
      ],
    );
    const g = await s.get('/k/a', { revision: r9 });
    t.deepEqual(g.kv && kvOf(g.kv), kv('/k/a', 'a4', r1, r8));
  });

  it('compaction of a long history keeps exactly the state at the compacted revision', async (t, s) => {
    const model = new Model();
    const keys = Array.from({ length: 20 }, (_, i) => `/L/k${String(i).padStart(2, '0')}`);
    await churn(s, model, keys, 600, 'a');
    const C = await s.currentRevision();
    const stateAtC = rangeOf(await s.range('/L/'));
    const watchFromC = new Collector(s, '/L/', C);
    await churn(s, model, keys, 300, 'b');
    const latest = rangeOf(await s.range('/L/'));
    const mid = C + 150;
    const stateAtMid = rangeOf(await s.range('/L/', { revision: mid }));
    await s.compact(C);
    t.deepEqual(rangeOf(await s.range('/L/', { revision: C })), stateAtC);
    t.deepEqual(rangeOf(await s.range('/L/', { revision: mid })), stateAtMid);
    t.deepEqual(rangeOf(await s.range('/L/')), latest);
    await t.throwsAsync(s.range('/L/', { revision: C - 1 }), { instanceOf: CompactedError });
    const replay = new Collector(s, '/L/', C);
    const end = model.after(0, '/L/').at(-1)!.kv.modRevision;
    await replay.untilRevision(end);
    await watchFromC.untilRevision(end);
    replay.watch.cancel();
    watchFromC.watch.cancel();
    assertEvents(t, replay, model.after(C, '/L/'), 'replay after compaction');
    assertEvents(t, watchFromC, model.after(C, '/L/'), 'watch across compaction');
  });
}
