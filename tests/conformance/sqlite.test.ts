import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { CompactedError, type KVEvent, type TxnResult } from '../../core/contracts/kv-store.js';
import { SqliteKV, type SqliteKVOptions } from '../../plugins/storage/sqlite/sqlite-kv.js';
import { kvConformance } from './kv-conformance.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const b = (s: string) => encoder.encode(s);
const str = (u: Uint8Array | undefined) => (u ? decoder.decode(u) : undefined);

function ok(r: TxnResult): TxnResult & { succeeded: true } {
  if (!r.succeeded) throw new Error(`write unexpectedly failed at revision ${r.revision}`);
  return r;
}

function tempFile(): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-sqlite-kv-'));
  return { file: join(dir, 'state.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function opener(options?: SqliteKVOptions) {
  return async () => {
    const { file, remove } = tempFile();
    const kv = new SqliteKV(file, options);
    return {
      kv,
      cleanup: async () => {
        await kv.close();
        remove();
      },
    };
  };
}

kvConformance('sqlite', opener());
// Tiny batches exercise multi-step watch catch-up and multi-transaction compaction.
kvConformance('sqlite (small batches)', opener({ replayChunk: 3, compactBatch: 2 }));

test('sqlite: data, history and the revision counter persist across close and reopen', async (t) => {
  const { file, remove } = tempFile();
  t.teardown(remove);
  let kv = new SqliteKV(file);
  const r1 = (await kv.create('/s/a', b('a1'))).revision;
  const r2 = (await kv.create('/s/b', b('b1'))).revision;
  const r3 = (await kv.update('/s/a', b('a2'), r1)).revision;
  const r4 = (await kv.delete('/s/b', r2)).revision;
  t.deepEqual([r1, r2, r3, r4], [1, 2, 3, 4]);
  await kv.close();
  await t.throwsAsync(kv.get('/s/a'));

  kv = new SqliteKV(file);
  t.is(await kv.currentRevision(), 4);
  const a = await kv.get('/s/a');
  t.deepEqual(
    a.kv && { ...a.kv, value: str(a.kv.value) },
    { key: '/s/a', value: 'a2', createRevision: 1, modRevision: 3 },
  );
  t.is((await kv.get('/s/b')).kv, undefined);
  t.is(str((await kv.get('/s/b', { revision: 3 })).kv?.value), 'b1');
  t.is(str((await kv.get('/s/a', { revision: 2 })).kv?.value), 'a1');
  t.is((await kv.create('/s/c', b('c1'))).revision, 5);

  // A watch from 0 on the reopened store replays the whole log.
  const events: KVEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    const w = kv.watch('/s/', 0, {
      onEvents: (evs) => {
        events.push(...evs);
        if (events.at(-1)!.kv.modRevision >= 5) {
          w.cancel();
          resolve();
        }
      },
      onError: reject,
    });
  });
  t.deepEqual(
    events.map((e) => [e.type, e.kv.key, str(e.kv.value), e.kv.modRevision, str(e.prevKv?.value)]),
    [
      ['PUT', '/s/a', 'a1', 1, undefined],
      ['PUT', '/s/b', 'b1', 2, undefined],
      ['PUT', '/s/a', 'a2', 3, 'a1'],
      ['DELETE', '/s/b', 'b1', 4, 'b1'],
      ['PUT', '/s/c', 'c1', 5, undefined],
    ],
  );
  await kv.close();
});

test('sqlite: compaction persists, physically removes superseded rows, and the revision never goes back', async (t) => {
  const { file, remove } = tempFile();
  t.teardown(remove);
  let kv = new SqliteKV(file);
  const c = (await kv.create('/s/a', b('a1'))).revision; // 1
  let m = c;
  for (let i = 2; i <= 5; i++) m = (await kv.update('/s/a', b(`a${i}`), m)).revision; // 2..5
  const bRev = (await kv.create('/s/b', b('b1'))).revision; // 6
  const del = (await kv.delete('/s/b', bRev)).revision; // 7: the newest row is a tombstone
  t.is(del, 7);
  await kv.compact(del);
  t.is(await kv.compactedRevision(), 7);
  await kv.close();

  // Only the state at revision 7 remains on disk: a's latest row.
  const raw = new Database(file, { readonly: true });
  t.deepEqual(raw.prepare('SELECT id, name, deleted FROM kv ORDER BY id').all(), [
    { id: 5, name: '/s/a', deleted: 0 },
  ]);
  t.is(raw.pragma('journal_mode', { simple: true }), 'wal');
  raw.close();

  kv = new SqliteKV(file);
  t.is(await kv.compactedRevision(), 7);
  t.is(await kv.currentRevision(), 7, 'the revision survives even though its row was compacted away');
  const err = await t.throwsAsync(kv.get('/s/a', { revision: 4 }), { instanceOf: CompactedError });
  t.is(err?.compactedRevision, 7);
  t.is(str((await kv.get('/s/a', { revision: 7 })).kv?.value), 'a5');
  t.is((await kv.create('/s/b', b('b2'))).revision, 8);
  t.is((await kv.update('/s/a', b('a6'), 5)).revision, 9);
  await kv.close();

  kv = new SqliteKV(file);
  t.is(await kv.currentRevision(), 9);
  t.deepEqual(
    (await kv.range('/s/')).kvs.map((x) => [x.key, str(x.value), x.createRevision, x.modRevision]),
    [
      ['/s/a', 'a6', 1, 9],
      ['/s/b', 'b2', 8, 8],
    ],
  );
  await kv.close();
});

/**
 * kill -9 a child that writes with `concurrency` independent loops, each printing an acknowledgement after its write
 * resolved; every acknowledged write must be there after reopening.
 */
async function killNineTest(t: ExecutionContext, concurrency: number): Promise<void> {
  const { file, remove } = tempFile();
  t.teardown(remove);
  const pluginUrl = new URL('../../plugins/storage/sqlite/sqlite-kv.js', import.meta.url).href;
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const [url, file, concurrency] = process.argv.slice(-3);
       const { SqliteKV } = await import(url);
       const kv = new SqliteKV(file);
       let next = 0;
       await Promise.all(Array.from({ length: Number(concurrency) }, async () => {
         for (;;) {
           const i = next++;
           const r = await kv.create('/crash/' + String(i).padStart(8, '0'), new TextEncoder().encode('v' + i));
           process.stdout.write('ack ' + i + ' ' + r.revision + '\\n');
           // Let the event loop run so the acknowledgement actually leaves the process.
           await new Promise((resolve) => setImmediate(resolve));
         }
       }));`,
      pluginUrl,
      file,
      String(concurrency),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const acks: Array<[number, number]> = [];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const wanted = 300 * concurrency > 3000 ? 3000 : 300;
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const line of lines) {
        const [, i, rev] = line.split(' ');
        acks.push([Number(i), Number(rev)]);
      }
      if (acks.length >= wanted) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code, signal) => reject(new Error(`writer exited early (${code ?? signal}): ${stderr}`)));
    setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`writer stalled after ${acks.length} acknowledgements: ${stderr}`));
    }, 30_000).unref();
  }).catch((err) => {
    if (acks.length < wanted) throw err;
  });
  t.is(await exited, 'SIGKILL');

  const kv = new SqliteKV(file);
  t.teardown(() => kv.close());
  const highest = Math.max(...acks.map(([, rev]) => rev));
  t.true((await kv.currentRevision()) >= highest);
  t.is(new Set(acks.map(([, rev]) => rev)).size, acks.length, 'every acknowledged write has its own revision');
  for (const [i, rev] of acks) {
    const g = await kv.get('/crash/' + String(i).padStart(8, '0'));
    if (!g.kv || str(g.kv.value) !== `v${i}` || g.kv.modRevision !== rev) {
      t.fail(`acknowledged write ${i} (revision ${rev}) lost: ${JSON.stringify(g.kv ?? null)}`);
      return;
    }
  }
  const after = await kv.currentRevision();
  t.is((await kv.create('/crash/next', b('x'))).revision, after + 1);
  t.is((await kv.range('/crash/')).count, after + 1);
}

test('sqlite: acknowledged writes survive kill -9 of the writing process', (t) => killNineTest(t, 1));

test('sqlite: acknowledged writes of 32 concurrent writers (group commit) survive kill -9', (t) => killNineTest(t, 32));

test('sqlite: writes issued in one turn are committed together, each compare-and-swap seeing the earlier ones', async (t) => {
  const { file, remove } = tempFile();
  t.teardown(remove);
  const kv = new SqliteKV(file);
  t.teardown(() => kv.close());
  const r0 = ok(await kv.create('/g/seed', b('s'))).revision;
  const events: KVEvent[] = [];
  const w = kv.watch('/g/', r0, { onEvents: (evs) => events.push(...evs), onError: (err) => t.fail(String(err)) });
  t.teardown(() => w.cancel());
  await new Promise<void>((resolve) => setTimeout(resolve, 20));

  // All issued before any of them is committed; the expected revisions follow from the order.
  const pending = [
    kv.create('/g/x', b('x1')), // r0+1
    kv.create('/g/x', b('x2')), // fails: /g/x exists (created just before, in the same batch)
    kv.update('/g/x', b('x3'), r0 + 1), // r0+2
    kv.update('/g/x', b('x4'), r0 + 1), // fails: stale
    kv.delete('/g/seed', r0), // r0+3
    kv.create('/g/seed', b('s2')), // r0+4: re-created after its delete in the same batch
    kv.delete('/g/x'), // r0+5
    kv.update('/g/x', b('x5'), r0 + 2), // fails: deleted, no current value
  ];
  // A read concurrent with the pending batch sees the state before it.
  t.is((await kv.get('/g/x')).kv, undefined);
  t.is(await kv.currentRevision(), r0);
  const res = await Promise.all(pending);
  const view = (r: TxnResult) => ({
    succeeded: r.succeeded,
    revision: r.revision,
    kv: r.succeeded && r.kv ? [str(r.kv.value), r.kv.createRevision, r.kv.modRevision] : undefined,
    current: !r.succeeded && r.current ? [str(r.current.value), r.current.createRevision, r.current.modRevision] : undefined,
  });
  t.deepEqual(res.map(view), [
    { succeeded: true, revision: r0 + 1, kv: ['x1', r0 + 1, r0 + 1], current: undefined },
    { succeeded: false, revision: r0 + 1, kv: undefined, current: ['x1', r0 + 1, r0 + 1] },
    { succeeded: true, revision: r0 + 2, kv: ['x3', r0 + 1, r0 + 2], current: undefined },
    { succeeded: false, revision: r0 + 2, kv: undefined, current: ['x3', r0 + 1, r0 + 2] },
    { succeeded: true, revision: r0 + 3, kv: ['s', r0, r0], current: undefined },
    { succeeded: true, revision: r0 + 4, kv: ['s2', r0 + 4, r0 + 4], current: undefined },
    { succeeded: true, revision: r0 + 5, kv: ['x3', r0 + 1, r0 + 2], current: undefined },
    { succeeded: false, revision: r0 + 5, kv: undefined, current: undefined },
  ]);
  // Read-your-writes once acknowledged.
  t.is(await kv.currentRevision(), r0 + 5);
  t.is((await kv.get('/g/x')).kv, undefined);
  t.is(str((await kv.get('/g/seed')).kv?.value), 's2');
  t.is(str((await kv.get('/g/x', { revision: r0 + 2 })).kv?.value), 'x3');

  await new Promise<void>((resolve) => setTimeout(resolve, 20));
  t.deepEqual(
    events.map((e) => [e.type, e.kv.key, str(e.kv.value), e.kv.modRevision, str(e.prevKv?.value)]),
    [
      ['PUT', '/g/x', 'x1', r0 + 1, undefined],
      ['PUT', '/g/x', 'x3', r0 + 2, 'x1'],
      ['DELETE', '/g/seed', 's', r0 + 3, 's'],
      ['PUT', '/g/seed', 's2', r0 + 4, undefined],
      ['DELETE', '/g/x', 'x3', r0 + 5, 'x3'],
    ],
  );
});

test('sqlite: a failed group-commit transaction fails every write in it, and only those', async (t) => {
  const { file, remove } = tempFile();
  t.teardown(remove);
  const kv = new SqliteKV(file, { maxBatch: 4 });
  t.teardown(() => kv.close());
  const r0 = ok(await kv.create('/f/seed', b('s'))).revision;
  // Make any insert of /f/boom abort its transaction.
  const raw = new Database(file);
  raw.exec(`CREATE TRIGGER boom BEFORE INSERT ON kv WHEN NEW.name = '/f/boom' BEGIN SELECT RAISE(ABORT, 'boom'); END`);
  const events: KVEvent[] = [];
  const w = kv.watch('/f/', r0, { onEvents: (evs) => events.push(...evs), onError: (err) => t.fail(String(err)) });
  t.teardown(() => w.cancel());
  await new Promise<void>((resolve) => setTimeout(resolve, 20));

  // Ten writes in one turn, at most four per transaction: [0..3] [4..7] [8, 9]; the second batch contains /f/boom.
  const keys = Array.from({ length: 10 }, (_, i) => (i === 5 ? '/f/boom' : `/f/k${i}`));
  const settled = await Promise.allSettled(keys.map((k) => kv.create(k, b(k))));
  t.deepEqual(
    settled.map((s) => (s.status === 'fulfilled' ? s.value.revision : (s.reason as Error).message)),
    [r0 + 1, r0 + 2, r0 + 3, r0 + 4, 'boom', 'boom', 'boom', 'boom', r0 + 5, r0 + 6],
  );
  t.is(await kv.currentRevision(), r0 + 6);
  t.deepEqual(
    (await kv.range('/f/')).kvs.map((x) => x.key),
    ['/f/k0', '/f/k1', '/f/k2', '/f/k3', '/f/k8', '/f/k9', '/f/seed'],
  );
  await new Promise<void>((resolve) => setTimeout(resolve, 20));
  t.deepEqual(
    events.map((e) => [e.kv.key, e.kv.modRevision]),
    [0, 1, 2, 3, 8, 9].map((i, n) => [`/f/k${i}`, r0 + 1 + n]),
  );

  // The store goes on: the failed keys can be written once the cause is gone.
  raw.exec('DROP TRIGGER boom');
  raw.close();
  t.is(ok(await kv.create('/f/boom', b('ok'))).revision, r0 + 7);
  t.is(ok(await kv.create('/f/k4', b('ok'))).revision, r0 + 8);
  w.cancel();
  await kv.close();
  const reopened = new SqliteKV(file);
  t.teardown(() => reopened.close());
  t.is(await reopened.currentRevision(), r0 + 8);
  t.is((await reopened.range('/f/')).count, 9);
});

test('sqlite: close commits writes already issued; later writes are refused', async (t) => {
  const { file, remove } = tempFile();
  t.teardown(remove);
  const kv = new SqliteKV(file);
  const pending = [kv.create('/z/a', b('a')), kv.create('/z/b', b('b'))];
  await kv.close();
  t.deepEqual(
    (await Promise.all(pending)).map((r) => [r.succeeded, r.revision]),
    [
      [true, 1],
      [true, 2],
    ],
  );
  await t.throwsAsync(kv.create('/z/c', b('c')), { message: 'storage is closed' });
  const reopened = new SqliteKV(file);
  t.teardown(() => reopened.close());
  t.deepEqual(
    (await reopened.range('/z/')).kvs.map((x) => [x.key, str(x.value), x.modRevision]),
    [
      ['/z/a', 'a', 1],
      ['/z/b', 'b', 2],
    ],
  );
});

test("sqlite: stored values are private copies, even of a pooled Buffer's bytes", async (t) => {
  const { file, remove } = tempFile();
  t.teardown(remove);
  const kv = new SqliteKV(file);
  t.teardown(() => kv.close());
  const buf = Buffer.from('pooled'); // a view into Node's shared allocation pool
  const r = ok(await kv.create('/v/a', buf));
  buf.write('XXXXXX');
  t.is(str(r.kv?.value), 'pooled');
  const got = (await kv.get('/v/a')).kv!;
  t.is(str(got.value), 'pooled');
  t.is(got.value.buffer.byteLength, got.value.byteLength, 'not a view into a larger buffer');
  const u = Buffer.from('updated');
  ok(await kv.update('/v/a', u, r.revision));
  u.write('YYYYYYY');
  t.is(str((await kv.range('/v/')).kvs[0]?.value), 'updated');
});
