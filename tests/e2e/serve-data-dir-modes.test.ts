// `kapi serve` keeps its data directory to its owner: the folder 0700, the SQLite database and its -wal and -shm files
// 0600 — on a fresh directory, and on one that already existed with wider modes.
import test from 'ava';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, startKapi, tempDir } from '../helpers/kapi-process.js';

const databaseFiles = ['kapi.db', 'kapi.db-wal', 'kapi.db-shm'];

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

function modes(dataDir: string): Record<string, string> {
  return Object.fromEntries([['.', mode(dataDir)], ...databaseFiles.map((f) => [f, mode(join(dataDir, f))])]);
}

const ownerOnly = { '.': '700', 'kapi.db': '600', 'kapi.db-wal': '600', 'kapi.db-shm': '600' };

test('a fresh data directory is 0700 and the database files 0600', async (t) => {
  const parent = tempDir('kapi-e2e-modes-');
  t.teardown(() => removeDir(parent));
  const dataDir = join(parent, 'data');
  const kapi = await startKapi({ dataDir });
  t.teardown(() => kapi.stop());
  t.deepEqual(modes(dataDir), ownerOnly);
});

test('an existing 0755 data directory with a 0644 database is narrowed to 0700 and 0600', async (t) => {
  const parent = tempDir('kapi-e2e-modes-');
  t.teardown(() => removeDir(parent));
  const dataDir = join(parent, 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  const first = await startKapi({ dataDir });
  await first.stop();
  // As an earlier kapi left them.
  chmodSync(join(dataDir, 'kapi.db'), 0o644);
  chmodSync(dataDir, 0o755);

  const kapi = await startKapi({ dataDir });
  t.teardown(() => kapi.stop());
  t.deepEqual(modes(dataDir), ownerOnly);
});
