import type { Context } from 'koa';
import type { UserInfo } from '../../contracts/authenticator.js';
import type { FlowControlConfiguration, FlowSchema, PriorityLevelStats } from '../../contracts/flowcontrol.js';
import { isLongRunning } from '../../request/long-running.js';
import type { RequestInfo } from '../../request/request-info.js';
import { flowDistinguisher, inMatchingOrder, matchFlowSchema } from './flow-classifier.js';
import { nominalShares, queueSetConfig } from './concurrency-limits.js';
import { QueueSet } from './queue-set.js';
import { answerTooManyRequests, responseStarted, type RequestLimiter } from './request-limiter.js';
import { RetryAfter } from './retry-after.js';
import { flowHash } from './shuffle-sharding.js';
import { estimateSeats, type ResourceLoad } from './work-estimator.js';

/** How long a request may wait in a queue: kube's limit for a request with the default 60 s deadline (a quarter). */
const queueWaitLimitMs = 15_000;

interface Level {
  name: string;
  uid: string;
  /** Absent for an Exempt level: its requests are never queued nor limited. */
  queues?: QueueSet;
  retryAfter: RetryAfter;
  /** Of an Exempt level (a Limited one counts in its queues). */
  exemptExecuting: number;
  exemptDispatched: number;
}

/**
 * kube's API Priority and Fairness filter: a request is classified by the first matching FlowSchema (by
 * matchingPrecedence) into a priority level and a flow; an Exempt level serves it at once, a Limited level when its
 * fair-queued turn comes and its seats fit (see QueueSet), or answers 429 with Retry-After. Every classified response
 * names its FlowSchema and priority level in `X-Kubernetes-PF-FlowSchema-UID` / `-PriorityLevel-UID`. A watch holds
 * its seats until its response starts; other long-running requests (proxy, exec, logs) are not limited, as in kube.
 * Follows the FlowSchemas and levels as they change.
 */
export class PriorityAndFairness implements RequestLimiter {
  readonly mode = 'priority-and-fairness';
  private ordered: FlowSchema[] = [];
  private levelsByName = new Map<string, Level>();

  constructor(
    private readonly configuration: FlowControlConfiguration,
    /** `--max-requests-inflight` + `--max-mutating-requests-inflight`. */
    private readonly serverLimit: number,
    private readonly load: (info: RequestInfo) => ResourceLoad,
  ) {
    configuration.subscribe(() => this.configure());
    this.configure();
  }

  levels(): PriorityLevelStats[] {
    return [...this.levelsByName.values()].map((l) => ({
      priorityLevel: l.name,
      nominalLimitSeats: l.queues?.concurrencyLimit ?? 0,
      executingRequests: l.queues?.requestsExecuting ?? l.exemptExecuting,
      executingSeats: l.queues?.seatsInUse ?? 0,
      waitingRequests: l.queues?.requestsWaiting ?? 0,
      dispatchedRequests: l.queues?.dispatched ?? l.exemptDispatched,
      rejectedRequests: { ...(l.queues?.rejected ?? { 'queue-full': 0, 'concurrency-limit': 0, 'time-out': 0, cancelled: 0 }) },
    }));
  }

  async serve(ctx: Context, info: RequestInfo, query: URLSearchParams, user: UserInfo, handler: () => Promise<void>): Promise<void> {
    const isWatch = info.verb === 'watch';
    if (isLongRunning(info) && !isWatch) return handler();
    const fs = matchFlowSchema(this.ordered, user, info);
    const level = fs && this.levelsByName.get(fs.spec!.priorityLevelConfiguration.name);
    if (!fs || !level) return handler(); // no configuration yet: nothing to classify by
    ctx.set('X-Kubernetes-PF-FlowSchema-UID', fs.metadata?.uid ?? '');
    ctx.set('X-Kubernetes-PF-PriorityLevel-UID', level.uid);
    if (!level.queues) return this.serveExempt(level, handler);

    const closed = new AbortController();
    const onClose = () => closed.abort();
    ctx.res.once('close', onClose);
    const hash = flowHash(fs.metadata?.name ?? '', flowDistinguisher(fs, user, info));
    const outcome = await level.queues.acquire(hash, estimateSeats(info, query, this.load), closed.signal);
    ctx.res.off('close', onClose);
    if (outcome === 'cancelled') return; // the client has gone: nobody to answer
    if (typeof outcome === 'string') {
      level.retryAfter.recordRejection();
      return answerTooManyRequests(ctx, level.retryAfter.seconds);
    }
    if (isWatch) void responseStarted(ctx).then(() => outcome.release());
    try {
      await handler();
    } finally {
      outcome.release();
    }
  }

  private async serveExempt(level: Level, handler: () => Promise<void>): Promise<void> {
    level.exemptExecuting++;
    level.exemptDispatched++;
    try {
      await handler();
    } finally {
      level.exemptExecuting--;
    }
  }

  /** Rebuilds the levels and the FlowSchema order from the current objects; a kept level keeps its queues. */
  private configure(): void {
    const configs = this.configuration.priorityLevels();
    const totalShares = configs.reduce((sum, pl) => sum + nominalShares(pl), 0);
    const levels = new Map<string, Level>();
    for (const pl of configs) {
      const name = pl.metadata?.name ?? '';
      const previous = this.levelsByName.get(name);
      const level: Level = previous ?? { name, uid: '', retryAfter: new RetryAfter(), exemptExecuting: 0, exemptDispatched: 0 };
      level.uid = pl.metadata?.uid ?? '';
      if (pl.spec?.type === 'Exempt') {
        delete level.queues;
      } else {
        const config = queueSetConfig(pl, this.serverLimit, totalShares);
        if (level.queues) level.queues.reconfigure(config);
        else level.queues = new QueueSet(config, queueWaitLimitMs);
      }
      levels.set(name, level);
    }
    this.levelsByName = levels;
    this.ordered = inMatchingOrder(this.configuration.flowSchemas().filter((fs) => levels.has(fs.spec?.priorityLevelConfiguration?.name ?? '')));
  }
}
