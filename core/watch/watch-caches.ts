import type { KVStore } from '../contracts/kv-store.js';
import type { RegistryChange, ResourceRegistry } from '../contracts/resource-registry.js';
import type { ResourceType } from '../contracts/resource-type.js';
import type { WatchCacheConfig } from '../contracts/server-config.js';
import { resourcePrefix } from '../store/keys.js';
import { WatchCache } from './watch-cache.js';
import type { StorageTransformers } from '../contracts/value-transformer.js';
import { resourceTransformer } from '../store/resource-transformer.js';
import { log } from '../../lib/log/logger.js';

/**
 * One watch cache per served resource, following the registry: a cache starts when its resource is registered (so
 * its history begins then, as kube-apiserver's caches begin at start-up) and stops, ending its watches, when the
 * resource is no longer served (a deleted CRD).
 */
export class WatchCaches {
  private readonly caches = new Map<string, WatchCache>();
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    private readonly kv: KVStore,
    private readonly registry: ResourceRegistry,
    private readonly config: WatchCacheConfig,
    /** How values are stored (encryption at rest); absent: as they are. */
    private readonly transformers?: StorageTransformers,
  ) {}

  start(): void {
    this.unsubscribe = this.registry.onChange((change) => this.follow(change));
    for (const rt of this.registry.all()) if (!rt.storage) this.forResource(rt);
  }

  /** The cache of `rt`, started if needed (a resource served a moment ago may not have one yet). */
  forResource(rt: ResourceType): WatchCache {
    const prefix = resourcePrefix(rt);
    let cache = this.caches.get(prefix);
    if (!cache) {
      cache = new WatchCache(this.kv, prefix, this.config, resourceTransformer(this.transformers, rt));
      this.caches.set(prefix, cache);
      cache.start().catch((err: Error) => log.error(`watch cache for ${prefix} failed to load: ${err.message}`));
    }
    return cache;
  }

  /**
   * The cache of `rt` while the registry serves it from kapi's storage (started if needed), else undefined: a
   * resource no longer served, or served from its own storage, has no cache.
   */
  servedCache(rt: ResourceType): WatchCache | undefined {
    const served = this.registry.get(rt.group, rt.names.plural);
    if (this.stopped || !served || served.storage) return undefined;
    return this.forResource(served);
  }

  /** How many objects each served resource has, by group-resource ("configmaps", "widgets.example.com"), from loaded caches. */
  *objectCounts(): Iterable<[string, number]> {
    for (const rt of this.registry.all()) {
      const cache = rt.storage ? undefined : this.caches.get(resourcePrefix(rt));
      if (cache?.isReady) yield [rt.group ? `${rt.names.plural}.${rt.group}` : rt.names.plural, cache.size];
    }
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    for (const cache of this.caches.values()) cache.stop();
    this.caches.clear();
  }

  /** Starts the cache of a type now served from kapi's storage; stops the one of keys no type is served from any more. */
  private follow({ previous, current }: RegistryChange): void {
    if (current && !current.storage) this.forResource(current);
    if (!previous || previous.storage) return;
    const prefix = resourcePrefix(previous);
    if (current && !current.storage && resourcePrefix(current) === prefix) return;
    // Types stored as another share its cache (a walk over every type, but only when one is no longer served).
    if (this.registry.all().some((rt) => !rt.storage && resourcePrefix(rt) === prefix)) return;
    this.caches.get(prefix)?.stop();
    this.caches.delete(prefix);
  }
}
