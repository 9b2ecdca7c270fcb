import { chmodSync, closeSync, openSync } from 'node:fs';

/**
 * Makes a SQLite database file readable by its owner only (mode 0600), creating it empty if it does not exist yet.
 * SQLite creates the -wal and -shm files with the database file's mode; ones left by an earlier run are narrowed too.
 */
export function makePrivateDatabaseFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}
