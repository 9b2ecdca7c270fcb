import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditBackend, AuditEvent } from '../../core/contracts/audit.js';
import { RotatingFile, type RotationOptions } from './rotating-file.js';
import { log } from '../../lib/log/logger.js';

export interface AuditLogOptions extends Partial<RotationOptions> {
  /** The log file, or `-` for standard output (kube's --audit-log-path). */
  path: string;
}

/**
 * What JSON.stringify leaves as is and is escaped here: what Go's JSON encoder escapes too (HTML's specials, U+2028,
 * U+2029), and NEL (U+0085), which some line readers (Python's splitlines) also take for a line break.
 */
const moreEscapes = /[<>&\u0085\u2028\u2029]/g;
const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * One event as one line: JSON.stringify escapes control characters and lone surrogates, the rest above any line
 * break, so nothing in a request can end or break the line.
 */
export function auditEventLine(event: AuditEvent): string {
  return `${JSON.stringify(event).replace(moreEscapes, unicodeEscape)}\n`;
}

/** Queued lines past this many bytes make requests wait for the writes (`backpressure`). */
const maxQueuedBytes = 4 * 1024 * 1024;

/**
 * kube's audit log backend (`--audit-log-path`, format json): each event a JSON line. Events are queued on the
 * request's path and written in batches after it; past `maxQueuedBytes` queued, requests wait for the writes, as
 * kube's blocking mode has them wait; `shutdown` writes everything queued. A failed write is logged with the events
 * it lost (kube's "Error in audit plugin 'log'") and the server carries on.
 */
export class AuditLogBackend implements AuditBackend {
  readonly name = 'log';
  private queue: string[] = [];
  private queuedBytes = 0;
  /** Batches taken from the queue, and written (or failed); requests held by `backpressure` wait for theirs. */
  private batchesTaken = 0;
  private batchesWritten = 0;
  private waiters: { batch: number; resolve: () => void }[] = [];
  private draining: Promise<void> | undefined;
  private readonly file: RotatingFile | undefined;

  constructor(options: AuditLogOptions) {
    if (options.path !== '-') {
      ensureLogFile(options.path);
      this.file = new RotatingFile(options.path, { maxSizeMB: options.maxSizeMB ?? 0, maxBackups: options.maxBackups ?? 0, maxAgeDays: options.maxAgeDays ?? 0 });
    }
  }

  processEvent(event: AuditEvent): void {
    const line = auditEventLine(event);
    this.queue.push(line);
    this.queuedBytes += line.length;
    this.draining ??= this.drain();
  }

  /** Past the bound, a promise of the queue's present events written: the next batch's. */
  backpressure(): Promise<void> | undefined {
    if (this.queuedBytes <= maxQueuedBytes) return undefined;
    const batch = this.batchesTaken + 1;
    return new Promise((resolve) => this.waiters.push({ batch, resolve }));
  }

  async shutdown(): Promise<void> {
    while (this.draining) await this.draining;
    await this.file?.close();
  }

  /** Resolves the waiters whose batch is written. */
  private releaseWaiters(): void {
    const done = this.waiters.filter((w) => w.batch <= this.batchesWritten);
    this.waiters = this.waiters.filter((w) => w.batch > this.batchesWritten);
    for (const w of done) w.resolve();
  }

  /** Writes batches until the queue is empty (started on the next turn, so one request's stages share a batch). */
  private async drain(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const lines = this.queue;
      this.queue = [];
      this.queuedBytes = 0;
      this.batchesTaken++;
      try {
        if (this.file) await this.file.writeLines(lines, (line, why) => failed(why, [line]));
        else await writeStdout(lines.join(''));
      } catch (err) {
        failed((err as Error).message, lines);
      }
      this.batchesWritten++;
      this.releaseWaiters();
    }
    this.draining = undefined;
  }
}

function failed(why: string, lines: string[]): void {
  log.error(`Error in audit plugin 'log' affecting ${lines.length} audit events: ${why}\nImpacted events:\n${lines.join('')}`);
}

function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

/** kube's ensureLogFile: the folder and the file (mode 0600) are created at start, so a path that cannot be written fails then. */
function ensureLogFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}
