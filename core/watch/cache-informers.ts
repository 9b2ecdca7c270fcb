import type { Informer, InformerEvent, Informers } from '../contracts/informer.js';
import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import { resourcePrefix } from '../store/keys.js';
import type { CacheEvent } from './cache-event.js';
import type { CacheWatcher } from './cache-watcher.js';
import type { WatchCaches } from './watch-caches.js';
import { InformerObjects } from './informer-objects.js';
import { RestStorageInformer } from './rest-storage-informer.js';

/** How long an informer waits before it follows its cache again after the cache ended its watch. */
const resyncDelayMs = 1000;

/**
 * The server's shared informers, each a watcher of its resource's watch cache: the one event path of the server
 * (controllers and admission plugins follow storage through the caches, as watches do). Informers asked for before
 * the caches exist (at module registration) start following when the server attaches them. A resource served from
 * its own storage (no watch cache) is followed through that storage's list and watch, when it has them.
 */
export class CacheInformers implements Informers {
  private readonly informers = new Map<string, CacheInformer | RestStorageInformer>();
  private caches?: WatchCaches;
  private attached!: () => void;
  private readonly whenAttached = new Promise<void>((resolve) => (this.attached = resolve));

  forResource(rt: ResourceType): Informer {
    const prefix = resourcePrefix(rt);
    let informer = this.informers.get(prefix);
    if (!informer) {
      const { list, watch } = rt.storage ?? {};
      informer =
        list && watch
          ? new RestStorageInformer(rt, { list: list.bind(rt.storage), watch: watch.bind(rt.storage) }, this.whenAttached)
          : new CacheInformer(rt, this.whenAttached.then(() => this.caches!));
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
  private readonly objects: InformerObjects;
  private readonly firstSync: Promise<void>;
  private firstSynced!: () => void;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly rt: ResourceType,
    private readonly caches: Promise<WatchCaches>,
  ) {
    this.keyPrefix = resourcePrefix(rt);
    this.objects = new InformerObjects(rt.names.plural);
    this.firstSync = new Promise((resolve) => (this.firstSynced = resolve));
    void this.follow();
  }

  synced(): Promise<void> {
    return this.firstSync;
  }

  current(): ReadonlyMap<string, KubeObject> {
    return this.objects.current();
  }

  subscribe(onEvents: (events: InformerEvent[]) => void): () => void {
    return this.objects.subscribe(onEvents);
  }

  deliver(events: readonly CacheEvent[]): void {
    this.objects.apply(events.map((e) => ({ key: e.key.slice(this.keyPrefix.length), type: e.type, object: e.object })));
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
    const state = cache.subscribe(this, { from: 'state' });
    this.objects.replace(new Map(state.map((e) => [e.key.slice(this.keyPrefix.length), e.object])));
    this.firstSynced();
  }

  private later(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.follow(), resyncDelayMs).unref();
  }
}
