import { ControllerTimers } from './controller-timers.js';
import { log } from '../log/logger.js';

export interface RetryingWorkQueueOptions {
  /** How many keys are worked on at once. */
  concurrency: number;
  /** The first retry's delay; each failure of the same key doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Named in the log line of a failure. */
  what: string;
}

/**
 * A controller's work queue (client-go's rate-limited workqueue, in small): a key is queued once however often it is
 * added, never worked on twice at a time (added while in work, it runs again after), and a key whose work fails —
 * throws, or returns `'retry'` — comes back after a per-key exponential backoff. Only queued or backing-off keys are
 * held.
 */
export class RetryingWorkQueue {
  private readonly queued = new Set<string>();
  private readonly working = new Set<string>();
  /** Keys added again while in work. */
  private readonly dirty = new Set<string>();
  /** Consecutive failures of keys that have not succeeded since. */
  private readonly failures = new Map<string, number>();
  private readonly timers = new ControllerTimers();

  constructor(
    private readonly work: (key: string) => Promise<'done' | 'retry'>,
    private readonly options: RetryingWorkQueueOptions,
  ) {}

  add(key: string): void {
    if (this.timers.stopped) return;
    if (this.working.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.queued.add(key);
    this.pump();
  }

  stop(): void {
    this.timers.stop();
    this.queued.clear();
    this.dirty.clear();
    this.failures.clear();
  }

  private pump(): void {
    while (this.working.size < this.options.concurrency && this.queued.size > 0 && !this.timers.stopped) {
      const key = this.queued.values().next().value!;
      this.queued.delete(key);
      this.working.add(key);
      void this.run(key);
    }
  }

  private async run(key: string): Promise<void> {
    let outcome: 'done' | 'retry';
    try {
      outcome = await this.work(key);
    } catch (err) {
      log.error(`${this.options.what} ${key} failed (${err instanceof Error ? err.message : String(err)}); trying again`);
      outcome = 'retry';
    }
    this.working.delete(key);
    if (outcome === 'retry') this.backOff(key);
    else this.failures.delete(key);
    if (this.dirty.delete(key)) this.add(key);
    this.pump();
  }

  private backOff(key: string): void {
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** Math.min(failures - 1, 30));
    this.timers.after(delay, () => this.add(key));
  }
}
