import { dealHand } from './shuffle-sharding.js';

/** Why a request was not served, as kube's `apiserver_flowcontrol_rejected_requests_total` labels it. */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

export interface QueuingSettings {
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

export interface QueueSetConfig {
  /** Seats the level's requests may occupy at once. */
  concurrencyLimit: number;
  /** How requests wait for seats; absent: they do not (limitResponse Reject). */
  queuing?: QueuingSettings;
}

/** What a request costs (kube's WorkEstimate): seats held while it runs, and for how long after it has finished. */
export interface Seats {
  width: number;
  /** Its seats stay taken this long after the request finished (the watch notifications a write causes). */
  additionalLatencyMs: number;
}

/** A dispatched request's seats: `release` them once, when it has finished (or, for a watch, has started). */
export interface SeatTicket {
  release(): void;
}

/** The estimated service time of a seat, in seconds: what dispatching advances a queue's virtual clock by. */
const estimatedServiceSeconds = 0.003;

interface Waiting {
  seats: Seats;
  queue: FairQueue;
  settle: (outcome: SeatTicket | RejectReason) => void;
}

class FairQueue {
  readonly waiting: Waiting[] = [];
  /** The virtual time (R) at which its next request would start, in kube's fair queuing. */
  nextDispatchR = 0;
  waitingSeats = 0;
  executingSeats = 0;

  get idle(): boolean {
    return this.waiting.length === 0 && this.executingSeats === 0;
  }
}

/**
 * kube's queueset: the queues of one priority level, fairly served. A request goes to the least loaded queue of its
 * flow's shuffle-sharded hand; the queues take turns by virtual finish time (fair queuing: each active queue earns
 * the same share of the level's seats per unit of real time, charged for the seats its requests held and how long),
 * and a request is dispatched when its seats fit under the limit (or nothing runs: a request wider than the level
 * still gets served, alone), once the event loop has read what else arrived (see dispatchSoon). A full queue
 * rejects, and a request that waited `waitLimitMs` gives up (both 429).
 */
export class QueueSet {
  private queues: FairQueue[] = [];
  /** Without queuing, requests are charged to this one queue, never dispatched from. */
  private readonly direct = new FairQueue();
  private currentR = 0;
  private lastRealMs = performance.now();
  private dispatchScheduled = false;
  seatsInUse = 0;
  requestsExecuting = 0;
  requestsWaiting = 0;
  dispatched = 0;
  readonly rejected: Record<RejectReason, number> = { 'queue-full': 0, 'concurrency-limit': 0, 'time-out': 0, cancelled: 0 };

  constructor(
    private config: QueueSetConfig,
    private readonly waitLimitMs: number,
  ) {
    this.reconfigure(config);
  }

  get concurrencyLimit(): number {
    return this.config.concurrencyLimit;
  }

  /** New limits for the level: more queues are added; queues beyond the new count are dealt no more requests. */
  reconfigure(config: QueueSetConfig): void {
    this.config = config;
    while (this.queues.length < (config.queuing?.queues ?? 0)) this.queues.push(new FairQueue());
    this.dispatchWhatFits();
  }

  /** Seats for a request of the flow `hash`, when its turn comes; or why it got none. */
  acquire(hash: number, seats: Seats, signal: AbortSignal): Promise<SeatTicket | RejectReason> {
    this.advanceVirtualTime();
    const queuing = this.config.queuing;
    if (!queuing || queuing.queues === 0) {
      if (!this.fits(seats.width)) return Promise.resolve(this.reject('concurrency-limit'));
      return Promise.resolve(this.dispatch(this.direct, seats));
    }
    const queue = this.chooseQueue(hash, queuing);
    if (queue.waiting.length >= queuing.queueLengthLimit) return Promise.resolve(this.reject('queue-full'));
    if (queue.idle) queue.nextDispatchR = Math.max(queue.nextDispatchR, this.currentR);
    return new Promise((resolve) => {
      const timer = setTimeout(() => leave('time-out'), this.waitLimitMs);
      const onAbort = () => leave('cancelled');
      const leave = (reason: RejectReason) => {
        const at = queue.waiting.indexOf(entry);
        if (at < 0) return;
        queue.waiting.splice(at, 1);
        queue.waitingSeats -= seats.width;
        this.requestsWaiting--;
        entry.settle(this.reject(reason));
      };
      const entry: Waiting = {
        seats,
        queue,
        settle: (outcome) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.waiting.push(entry);
      queue.waitingSeats += seats.width;
      this.requestsWaiting++;
      this.dispatchSoon();
    });
  }

  /** The least loaded queue (seats waiting and executing) of the flow's hand. */
  private chooseQueue(hash: number, queuing: QueuingSettings): FairQueue {
    let best: FairQueue | undefined;
    for (const index of dealHand(hash, queuing.queues, queuing.handSize)) {
      const q = this.queues[index]!;
      if (!best || q.waitingSeats + q.executingSeats < best.waitingSeats + best.executingSeats) best = q;
    }
    return best!;
  }

  private fits(width: number): boolean {
    return this.seatsInUse === 0 || this.seatsInUse + width <= this.config.concurrencyLimit;
  }

  /** Dispatches, queue by queue in order of virtual finish time, every head of a queue whose seats fit. */
  private dispatchWhatFits(): void {
    for (;;) {
      this.advanceVirtualTime();
      let next: FairQueue | undefined;
      let nextFinish = Infinity;
      for (const q of this.queues) {
        const head = q.waiting[0];
        if (!head) continue;
        const finish = q.nextDispatchR + head.seats.width * estimatedServiceSeconds;
        if (finish < nextFinish) [next, nextFinish] = [q, finish];
      }
      if (!next || !this.fits(next.waiting[0]!.seats.width)) return;
      const head = next.waiting.shift()!;
      next.waitingSeats -= head.seats.width;
      this.requestsWaiting--;
      next.nextDispatchR += head.seats.width * estimatedServiceSeconds;
      head.settle(this.dispatch(next, head.seats));
    }
  }

  /**
   * Dispatches what fits once the event loop has polled for I/O: the requests read in one turn arrived, for fair
   * queuing, at the same moment. Dispatched as each is read, the first ones would take the seats whatever their
   * queue's turn, and a flow with many connections would be served first come, first served. Nor is the next request
   * dispatched from a finished one's continuation: a backlog whose requests need no I/O (a GET from the cache) would be
   * served to its end in one microtask chain before a request that arrived meanwhile is even read.
   */
  private dispatchSoon(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatchWhatFits();
    });
  }

  /** Called right after advanceVirtualTime: the service is timed from the clock reading R was advanced to. */
  private dispatch(queue: FairQueue, seats: Seats): SeatTicket {
    const started = this.lastRealMs;
    queue.executingSeats += seats.width;
    this.seatsInUse += seats.width;
    this.requestsExecuting++;
    this.dispatched++;
    let released = false;
    const free = () => {
      this.advanceVirtualTime();
      // charge the queue for the service its request really took instead of the estimate, over the same clock
      // readings R advanced by while it held its seats (else R drifts ahead of the queues it serves)
      const servedSeconds = (this.lastRealMs - started) / 1000;
      queue.nextDispatchR += (servedSeconds - estimatedServiceSeconds) * seats.width;
      queue.executingSeats -= seats.width;
      this.seatsInUse -= seats.width;
      this.dispatchSoon();
    };
    return {
      release: () => {
        if (released) return;
        released = true;
        this.requestsExecuting--;
        if (seats.additionalLatencyMs > 0) setTimeout(free, seats.additionalLatencyMs).unref();
        else free();
      },
    };
  }

  private reject(reason: RejectReason): RejectReason {
    this.rejected[reason]++;
    return reason;
  }

  /**
   * Advances the virtual clock R: each active queue (waiting or executing) earns an equal share of the seats in use,
   * per second of real time. kube's share is of the seats requested (waiting and executing, up to the limit): the
   * same while its queues have waiting requests, since kube dispatches the moment a seat is free and its seats are
   * then all in use. Here waiting requests are dispatched after the loop turn (dispatchSoon), and seats sit free in
   * between: counted as service, they would move R ahead of what the backlogged queues are really served, and a queue
   * that becomes active (starting at R) would wait behind them until they caught up.
   */
  private advanceVirtualTime(): void {
    const now = performance.now();
    const elapsed = (now - this.lastRealMs) / 1000;
    this.lastRealMs = now;
    if (this.seatsInUse === 0) return;
    let active = 0;
    for (const q of this.queues) if (!q.idle) active++;
    if (active > 0) this.currentR += (elapsed * Math.min(this.seatsInUse, Math.max(this.config.concurrencyLimit, 1))) / active;
  }
}
