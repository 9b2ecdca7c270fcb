import { isCompacted, isFutureRevision, isTransient, storageClosed, toApiError, wasNotSent } from './etcd-errors.js';

/** A call's deadline, in ms since the epoch. */
export type Deadline = number;

/**
 * `read`: idempotent, retried on any transient failure; `write`: retried only when it was not sent at all; `probe`:
 * one attempt (health checks: report the state now).
 */
export type CallKind = 'read' | 'write' | 'probe';

const firstBackoffMs = 25;
const maxBackoffMs = 500;

/**
 * Runs etcd calls with a deadline each, retrying transient failures while the deadline allows, so a request never
 * waits on etcd longer than `timeoutMs` and then answers a Status (503/504) instead of hanging.
 *
 * Each attempt goes to a random endpoint (EtcdClient), so with several endpoints a dead member costs a retry, not a
 * failure. A write is retried only when it never left this process: one whose outcome is unknown may have been applied.
 */
export class EtcdCaller {
  private closed = false;

  constructor(readonly timeoutMs: number) {}

  async call<T>(kind: CallKind, fn: (deadline: Deadline) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let backoff = firstBackoffMs;
    for (;;) {
      if (this.closed) throw storageClosed();
      try {
        return await fn(deadline);
      } catch (err) {
        // Revision errors are answers, not failures: the KV store turns them into its own errors.
        if (isCompacted(err) || isFutureRevision(err)) throw err;
        const retry = kind === 'read' ? isTransient(err) : kind === 'write' && wasNotSent(err);
        if (!retry || this.closed || Date.now() + backoff >= deadline) throw toApiError(err, kind === 'write' ? 'write' : 'read');
      }
      await new Promise((resolve) => setTimeout(resolve, backoff));
      backoff = Math.min(backoff * 2, maxBackoffMs);
    }
  }

  close(): void {
    this.closed = true;
  }
}
