import type { InformerEvent } from '../contracts/informer.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { log } from '../../lib/log/logger.js';

/** A change to one object of an informer, by its key (`namespace/name`, or `name` when cluster-scoped). */
export interface KeyedChange extends InformerEvent {
  key: string;
}

/**
 * What every informer keeps: the objects by key and its subscribers, told of each batch of changes — changes as they
 * come, or the differences found when a whole new state replaces the old one (after a re-sync).
 */
export class InformerObjects {
  private readonly objects = new Map<string, KubeObject>();
  private readonly listeners = new Set<(events: InformerEvent[]) => void>();

  /** `what`: the resource, named when a subscriber fails. */
  constructor(private readonly what: string) {}

  current(): ReadonlyMap<string, KubeObject> {
    return this.objects;
  }

  subscribe(onEvents: (events: InformerEvent[]) => void): () => void {
    this.listeners.add(onEvents);
    return () => this.listeners.delete(onEvents);
  }

  apply(changes: KeyedChange[]): void {
    const events: InformerEvent[] = [];
    for (const { key, type, object } of changes) {
      if (type === 'DELETED') this.objects.delete(key);
      else this.objects.set(key, object);
      events.push({ type, object });
    }
    this.emit(events);
  }

  /** Takes `next` as the whole state, reporting what was added, modified (another resourceVersion) or deleted. */
  replace(next: ReadonlyMap<string, KubeObject>): void {
    const changes: InformerEvent[] = [];
    for (const [key, object] of next) {
      const had = this.objects.get(key);
      if (!had) changes.push({ type: 'ADDED', object });
      else if (had.metadata?.resourceVersion !== object.metadata?.resourceVersion) changes.push({ type: 'MODIFIED', object });
    }
    for (const [key, object] of this.objects) if (!next.has(key)) changes.push({ type: 'DELETED', object });
    this.objects.clear();
    for (const [key, object] of next) this.objects.set(key, object);
    this.emit(changes);
  }

  private emit(changes: InformerEvent[]): void {
    if (changes.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (err) {
        // one consumer's bug must not keep the others from their events (nor end the process from a timer)
        log.error(`an informer listener of ${this.what} failed`, { err });
      }
    }
  }
}
