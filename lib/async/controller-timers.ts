/** A controller's delayed work: what is pending is cancelled when the controller stops. */
import { log } from '../log/logger.js';
export class ControllerTimers {
  private readonly pending = new Set<NodeJS.Timeout>();
  private stoppedFlag = false;

  get stopped(): boolean {
    return this.stoppedFlag;
  }

  /** Runs `fn` after `ms`, unless the controller has stopped by then. */
  after(ms: number, fn: () => void): void {
    if (this.stoppedFlag) return;
    const t = setTimeout(() => {
      this.pending.delete(t);
      fn();
    }, ms);
    this.pending.add(t);
  }

  /** Runs `attempt` after `ms`, and again after each failure (logged as `what` failed), until it succeeds or stop. */
  retry(ms: number, what: string, attempt: () => Promise<void>): void {
    this.after(ms, () => {
      attempt().catch((err: Error) => {
        log.error(`${what} failed (${err.message}); trying again`);
        this.retry(ms, what, attempt);
      });
    });
  }

  stop(): void {
    this.stoppedFlag = true;
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}
