import type { Informer, InformerEvent, Informers } from '../contracts/informer.js';
import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import { resourcePrefix } from '../store/keys.js';
import type { CacheEvent } from './cache-event.js';
import type { CacheWatcher } from './watch-cache.js';
import type { WatchCaches } from './watch-caches.js';

/** How long an informer waits before it follows its cache again after the cache ended its watch. */
const resyncDelayMs = 1000;

/**
 * The server's shared informers, each a watcher of its resource's watch cache: the one event path of the server
 * (controllers and admission plugins follow storage through the caches, as watches do). Informers asked for before
 * the caches exist (at module registration) start following when the server attaches them.
 */
export class CacheInformers implements Informers {
  private readonly informers = new Map<string, CacheInformer>();
  private caches?: WatchCaches;
  private attached!: () => void;
  private readonly whenAttached = new Promise<void>((resolve) => (this.attached = resolve));

  forResource(rt: ResourceType): Informer {
    const prefix = resourcePrefix(rt);
    let informer = this.informers.get(prefix);
    if (!informer) {
      informer = new CacheInformer(rt, this.whenAttached.then(() => this.caches!));
      this.informers.set(prefix, informer);
    }
    return informer;
  }

  /** Called once the server's watch caches run. */
  attach(caches: WatchCaches): void {
    this.caches = caches;
    this.attached();
  }

  stop(): void {
    for (const informer of this.informers.values()) informer.stop();
    this.informers.clear();
  }
}

class CacheInformer implements Informer, CacheWatcher {
  readonly keyPrefix: string;
  last = 0;
  private readonly objects = new Map<string, KubeObject>();
  private readonly listeners = new Set<(events: InformerEvent[]) => void>();
  private readonly firstSync: Promise<void>;
  private firstSynced!: () => void;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly rt: ResourceType,
    private readonly caches: Promise<WatchCaches>,
  ) {
    this.keyPrefix = resourcePrefix(rt);
    this.firstSync = new Promise((resolve) => (this.firstSynced = resolve));
    void this.follow();
  }

  synced(): Promise<void> {
    return this.firstSync;
  }

  current(): ReadonlyMap<string, KubeObject> {
    return this.objects;
  }

  subscribe(onEvents: (events: InformerEvent[]) => void): () => void {
    this.listeners.add(onEvents);
    return () => this.listeners.delete(onEvents);
  }

  deliver(events: CacheEvent[]): void {
    const changes: InformerEvent[] = [];
    for (const e of events) {
      const key = e.key.slice(this.keyPrefix.length);
      if (e.type === 'DELETED') this.objects.delete(key);
      else this.objects.set(key, e.object);
      changes.push({ type: e.type, object: e.object });
    }
    this.emit(changes);
  }

  /** The cache stopped feeding us (it lost storage and reloads, or its resource went): follow it again shortly. */
  terminate(): void {
    this.later();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /**
   * Subscribes to the cache from its current state and reports how that state differs from what we had. While the
   * resource is not served (a CRD not yet established, or deleted) the informer keeps its last state and looks again.
   */
  private async follow(): Promise<void> {
    if (this.stopped) return;
    const caches = await this.caches;
    if (this.stopped) return;
    const cache = caches.servedCache(this.rt);
    if (!cache) return this.later();
    const loaded = await cache.start().then(
      () => true,
      () => false,
    );
    if (this.stopped) return;
    if (!loaded || !cache.isReady) return this.later();
    this.replace(cache.subscribe(this, { from: 'state' }));
    this.firstSynced();
  }

  private later(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.follow(), resyncDelayMs).unref();
  }

  private replace(state: CacheEvent[]): void {
    const next = new Map(state.map((e) => [e.key.slice(this.keyPrefix.length), e.object]));
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
        console.error(`kapi: an informer listener of ${this.rt.names.plural} failed:`, err);
      }
    }
  }
}
