import { open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export interface RotationOptions {
  /** Megabytes a file may reach before it is rotated; 0: lumberjack's default, 100. */
  maxSizeMB: number;
  /** Rotated files kept, newest first; 0: all. */
  maxBackups: number;
  /** Days a rotated file is kept, by the time in its name; 0: forever. */
  maxAgeDays: number;
}

const megabyte = 1024 * 1024;
const dayMs = 24 * 60 * 60 * 1000;
/** Go's "2006-01-02T15-04-05.000", in UTC. */
const backupTime = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)\.(\d{3})$/;

/**
 * A log file rotated as kube's audit log is (natefinch/lumberjack): a write that would take the file past its size
 * moves it aside as `<name>-<UTC time>.<ext>` (`audit-2026-11-27T08-00-00.000.log`) and starts a new one (mode 0600);
 * then rotated files beyond `maxBackups` or older than `maxAgeDays` are removed. Not safe for concurrent calls: the
 * caller writes one batch at a time.
 */
export class RotatingFile {
  private file: FileHandle | undefined;
  private size = 0;
  private readonly maxBytes: number;

  constructor(
    readonly path: string,
    private readonly options: RotationOptions,
  ) {
    this.maxBytes = (options.maxSizeMB || 100) * megabyte;
  }

  /**
   * Appends the lines, rotating between two lines whenever the next one would not fit. A line larger than a whole file
   * is not written: `onRefused` is told (lumberjack's "write length … exceeds maximum file size").
   */
  async writeLines(lines: readonly string[], onRefused: (line: string, why: string) => void): Promise<void> {
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.from(line, 'utf8');
      if (bytes.length > this.maxBytes) {
        onRefused(line, `write length ${bytes.length} exceeds maximum file size ${this.maxBytes}`);
        continue;
      }
      const file = await this.current(bytes.length);
      if (this.size + chunkBytes + bytes.length > this.maxBytes) {
        await this.append(file, chunk, chunkBytes);
        chunk = [];
        chunkBytes = 0;
        await this.rotate();
      }
      chunk.push(bytes);
      chunkBytes += bytes.length;
    }
    if (chunkBytes > 0) await this.append(await this.current(0), chunk, chunkBytes);
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  /** The open file; at the first write, the existing one (appended to) unless this write would overflow it. */
  private async current(nextBytes: number): Promise<FileHandle> {
    if (this.file) return this.file;
    let existing: number | undefined;
    try {
      existing = (await stat(this.path)).size;
    } catch {
      existing = undefined;
    }
    if (existing !== undefined && existing + nextBytes < this.maxBytes) {
      this.file = await open(this.path, 'a', 0o600);
      this.size = existing;
    } else {
      await this.rotate();
    }
    return this.file!;
  }

  private async append(file: FileHandle, chunk: Buffer[], bytes: number): Promise<void> {
    if (bytes === 0) return;
    await file.write(Buffer.concat(chunk, bytes));
    this.size += bytes;
  }

  /** Moves the current file (if any) aside and opens a new one; then removes what is no longer kept. */
  private async rotate(): Promise<void> {
    await this.close();
    try {
      await rename(this.path, await this.freeBackupPath());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    this.file = await open(this.path, 'w', 0o600);
    this.size = 0;
    await this.removeOldBackups();
  }

  /** The backup's name with the time now, a millisecond later while that name is taken (rotations within one). */
  private async freeBackupPath(): Promise<string> {
    const ext = extname(this.path);
    for (let at = Date.now(); ; at++) {
      const stamp = new Date(at).toISOString().slice(0, 23).replace(/:/g, '-');
      const path = join(dirname(this.path), `${basename(this.path, ext)}-${stamp}${ext}`);
      if (!(await exists(path))) return path;
    }
  }

  private async removeOldBackups(): Promise<void> {
    const { maxBackups, maxAgeDays } = this.options;
    if (maxBackups === 0 && maxAgeDays === 0) return;
    const backups = (await this.backups()).sort((a, b) => b.time - a.time);
    const doomed = new Set<string>();
    if (maxBackups > 0) for (const b of backups.slice(maxBackups)) doomed.add(b.path);
    if (maxAgeDays > 0) {
      const cutoff = Date.now() - maxAgeDays * dayMs;
      for (const b of backups) if (b.time < cutoff) doomed.add(b.path);
    }
    for (const path of doomed) await rm(path, { force: true });
  }

  /** The rotated files of this log, with the time in their names. */
  private async backups(): Promise<{ path: string; time: number }[]> {
    const dir = dirname(this.path);
    const ext = extname(this.path);
    const prefix = `${basename(this.path, ext)}-`;
    const found: { path: string; time: number }[] = [];
    for (const name of await readdir(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith(ext)) continue;
      const m = backupTime.exec(name.slice(prefix.length, name.length - ext.length));
      if (m) found.push({ path: join(dir, name), time: Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) });
    }
    return found;
  }
}
