import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { Informer, InformerEvent } from '../../core/contracts/informer.js';
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { parseRFC3339, timeMillis } from '../../lib/go/timestamp.js';
import { log } from '../../lib/log/logger.js';

/** Node's timers hold at most 2^31 - 1 ms; a later expiry is looked at again then. */
const maxTimerMs = 2 ** 31 - 1;

interface Due {
  /** The informer's key (`namespace/name`). */
  key: string;
  /** The resourceVersion that expires: a later write renews the Event (kube puts every write under a new etcd lease). */
  resourceVersion: string;
  at: number;
}

/** When an Event stored before the server started was last written: its newest managedFields time, else its creation. */
function lastWrite(obj: KubeObject): number {
  const times = [obj.metadata?.creationTimestamp, ...(obj.metadata?.managedFields ?? []).map((f) => (f as { time?: string }).time)];
  let newest = 0;
  for (const t of times) {
    const parsed = t ? parseRFC3339(t) : undefined;
    if (parsed) newest = Math.max(newest, timeMillis(parsed));
  }
  return newest || Date.now();
}

/**
 * Deletes each Event `ttlMs` after its last write, as kube-apiserver's `--event-ttl` does through etcd leases. One
 * timer for the earliest expiry and a queue ordered by time (writes arrive in time order, so each goes to the end):
 * no timer per Event. The Events are those the shared informer of core/v1 Events holds, whichever group wrote them.
 */
export class EventExpiry implements Controller {
  readonly name = 'event-expiry';
  private readonly queue: Due[] = [];
  private informer?: Informer;
  private client?: ResourceClient;
  private unsubscribe?: () => void;
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private stopped = false;

  constructor(
    private readonly container: DependencyContainer,
    private readonly events: ResourceType,
    private readonly ttlMs: number,
  ) {}

  get resources(): Controller['resources'] {
    return [{ group: this.events.group, resource: this.events.names.plural }];
  }

  async start(): Promise<void> {
    this.client = this.container.resolve(Tokens.Objects).forResource(this.events, { skipAdmission: true });
    this.informer = this.container.resolve(Tokens.Informers).forResource(this.events);
    this.unsubscribe = this.informer.subscribe((events) => this.written(events));
    await this.informer.synced();
    for (const [key, obj] of this.informer.current()) this.expireAt(key, obj, lastWrite(obj) + this.ttlMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
  }

  private written(events: InformerEvent[]): void {
    const at = Date.now() + this.ttlMs;
    for (const e of events) if (e.type !== 'DELETED') this.expireAt(keyOf(e.object), e.object, at);
  }

  private expireAt(key: string, obj: KubeObject, at: number): void {
    const due = { key, resourceVersion: obj.metadata?.resourceVersion ?? '', at };
    // Almost always the latest: search back from the end for its place.
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.at > at) i--;
    this.queue.splice(i, 0, due);
    this.schedule();
  }

  private schedule(): void {
    const next = this.queue[0];
    if (this.stopped || !next || next.at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = next.at;
    this.timer = setTimeout(() => this.expire(), Math.min(Math.max(0, next.at - Date.now()), maxTimerMs)).unref();
  }

  private expire(): void {
    this.timerAt = Infinity;
    const now = Date.now();
    while (this.queue.length && this.queue[0]!.at <= now) {
      const due = this.queue.shift()!;
      const current = this.informer?.current().get(due.key);
      if (current?.metadata?.resourceVersion === due.resourceVersion) void this.delete(current);
    }
    this.schedule();
  }

  private async delete(obj: KubeObject): Promise<void> {
    try {
      await this.client!.delete(obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) log.error(`expiring event ${keyOf(obj)} failed`, { err });
    }
  }
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}
