import type { Context } from 'koa';
import type { UserInfo } from '../../contracts/authenticator.js';
import type { PriorityLevelStats } from '../../contracts/flowcontrol.js';
import { isLongRunning } from '../../request/long-running.js';
import type { RequestInfo } from '../../request/request-info.js';
import { answerTooManyRequests, type RequestLimiter } from './request-limiter.js';

/** kube's verbs that are not mutating (a non-resource request's verb is its lower-cased method). */
const readOnlyVerbs = new Set(['get', 'list', 'watch']);

class InFlight {
  executing = 0;
  dispatched = 0;
  rejected = 0;
  constructor(
    readonly name: 'readOnly' | 'mutating',
    readonly limit: number,
  ) {}

  stats(): PriorityLevelStats {
    return {
      priorityLevel: this.name,
      nominalLimitSeats: this.limit,
      executingRequests: this.executing,
      executingSeats: this.executing,
      waitingRequests: 0,
      dispatchedRequests: this.dispatched,
      rejectedRequests: { 'queue-full': 0, 'concurrency-limit': this.rejected, 'time-out': 0, cancelled: 0 },
    };
  }
}

/**
 * kube's max-in-flight filter (with `--enable-priority-and-fairness=false`): at most `maxRequestsInflight` read-only
 * and `maxMutatingRequestsInflight` mutating requests at once (0: no limit); one more is a 429 with Retry-After 1,
 * unless its user is in system:masters. Long-running requests (watches, proxies, exec…) are not counted.
 */
export class MaxInFlightLimiter implements RequestLimiter {
  readonly mode = 'max-in-flight';
  private readonly readOnly: InFlight;
  private readonly mutating: InFlight;

  constructor(maxRequestsInflight: number, maxMutatingRequestsInflight: number) {
    this.readOnly = new InFlight('readOnly', maxRequestsInflight);
    this.mutating = new InFlight('mutating', maxMutatingRequestsInflight);
  }

  levels(): PriorityLevelStats[] {
    return [this.readOnly.stats(), this.mutating.stats()];
  }

  async serve(ctx: Context, info: RequestInfo, _query: URLSearchParams, user: UserInfo, handler: () => Promise<void>): Promise<void> {
    if (isLongRunning(info)) return handler();
    const kind = readOnlyVerbs.has(info.verb) ? this.readOnly : this.mutating;
    if (kind.limit === 0) return handler();
    if (kind.executing >= kind.limit) {
      // a system:masters user (a super-admin, a loopback client) always gets an answer, as in kube
      if (user.groups.includes('system:masters')) return handler();
      kind.rejected++;
      return answerTooManyRequests(ctx, 1);
    }
    kind.executing++;
    kind.dispatched++;
    try {
      await handler();
    } finally {
      kind.executing--;
    }
  }
}
