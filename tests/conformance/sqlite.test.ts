import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { CompactedError, type KVEvent } from '../../core/storage/kv.js';
import { SqliteKV, type SqliteKVOptions } from '../../plugins/storage/sqlite/sqlite-kv.js';
import { kvConformance } from './kv-conformance.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const b = (s: string) => encoder.encode(s);
const str = (u: Uint8Array | undefined) => (u ? decoder.decode(u) : undefined);

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

test('sqlite: acknowledged writes survive kill -9 of the writing process', async (t) => {
  const { file, remove } = tempFile();
  t.teardown(remove);
  const pluginUrl = new URL('../../plugins/storage/sqlite/sqlite-kv.js', import.meta.url).href;
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const [url, file] = process.argv.slice(-2);
       const { SqliteKV } = await import(url);
       const kv = new SqliteKV(file);
       for (let i = 0; ; i++) {
         const r = await kv.create('/crash/' + String(i).padStart(8, '0'), new TextEncoder().encode('v' + i));
         process.stdout.write('ack ' + i + ' ' + r.revision + '\\n');
         // Let the event loop run so the acknowledgement actually leaves the process.
         await new Promise((resolve) => setImmediate(resolve));
       }`,
      pluginUrl,
      file,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const acks: Array<[number, number]> = [];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
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
      if (acks.length >= 300) {
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
    if (acks.length < 300) throw err;
  });
  t.is(await exited, 'SIGKILL');

  const kv = new SqliteKV(file);
  t.teardown(() => kv.close());
  const last = acks.at(-1)!;
  t.true((await kv.currentRevision()) >= last[1]);
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
});
