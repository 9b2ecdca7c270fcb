/**
 * What the gc group reads off a watch of the widgets: when the owner and each of its dependents were seen DELETED
 * (bench/gc.ts). Fed the watch stream's raw chunks and the time each arrived; pure, so it is unit-tested.
 */

export interface CollectionTimes {
  /** Dependents seen DELETED so far, of all named. */
  gone: number;
  dependents: number;
  /** Arrival times (ms, the caller's clock) of the first and last dependent's DELETED event, and of the owner's. */
  firstDependentGoneAt?: number;
  lastDependentGoneAt?: number;
  ownerGoneAt?: number;
}

export class CollectionWatch {
  private readonly waiting: Set<string>;
  private readonly times: CollectionTimes;
  /** The start of a line whose end has not arrived yet. */
  private partial = '';

  constructor(
    private readonly owner: string,
    dependents: Iterable<string>,
  ) {
    this.waiting = new Set(dependents);
    this.times = { gone: 0, dependents: this.waiting.size };
  }

  /** Takes the next chunk of the stream (newline-delimited watch events, JSON), received at `atMs`. */
  feed(chunk: string, atMs: number): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') this.event(JSON.parse(line) as WatchEvent, atMs);
  }

  /** Every dependent and the owner have been seen DELETED. */
  get done(): boolean {
    return this.waiting.size === 0 && this.times.ownerGoneAt !== undefined;
  }

  get result(): CollectionTimes {
    return { ...this.times };
  }

  private event(e: WatchEvent, atMs: number): void {
    // An ERROR event (e.g. 410 Expired) means the watch no longer shows every deletion: the measurement would be wrong.
    if (e.type === 'ERROR') throw new Error(`the watch ended with an ERROR event: ${JSON.stringify(e.object).slice(0, 300)}`);
    if (e.type !== 'DELETED') return;
    const name = e.object?.metadata?.name ?? '';
    if (name === this.owner) this.times.ownerGoneAt ??= atMs;
    else if (this.waiting.delete(name)) {
      this.times.gone++;
      this.times.firstDependentGoneAt ??= atMs;
      this.times.lastDependentGoneAt = atMs;
    }
  }
}

interface WatchEvent {
  type?: string;
  object?: { metadata?: { name?: string } };
}

/** Times of the successful responses of a load, so that its rate can be read over any window of it afterwards. */
export class ResponseTimes {
  private readonly times: number[] = [];

  add(atMs: number): void {
    this.times.push(atMs);
  }

  /** Responses per second in [fromMs, toMs). */
  ratePerSecond(fromMs: number, toMs: number): number {
    if (toMs <= fromMs) throw new Error(`an empty window: ${fromMs} → ${toMs} ms`);
    return this.count(fromMs, toMs) / ((toMs - fromMs) / 1000);
  }

  count(fromMs: number, toMs: number): number {
    return this.times.filter((t) => t >= fromMs && t < toMs).length;
  }
}
