import type { ResourceRegistry } from '../contracts/resource-registry.js';

/** Something else a cached value is built from that says when it changed (the APIServices, remote discovery). */
export interface Generational {
  readonly generation: number;
}

/**
 * A value built from the registry, rebuilt only when the registry's generation (or the registry) changes, or that of
 * another source given with it (an absent one never changes).
 */
export class GenerationCache<T> {
  private cached?: { sources: readonly unknown[]; generations: readonly (number | undefined)[]; value: T };

  constructor(private readonly build: (registry: ResourceRegistry) => T) {}

  get(registry: ResourceRegistry, ...also: (Generational | undefined)[]): T {
    const sources = [registry, ...also];
    const generations = sources.map((s) => s?.generation);
    const c = this.cached;
    if (c && c.sources.length === sources.length && sources.every((s, i) => c.sources[i] === s && c.generations[i] === generations[i])) return c.value;
    const value = this.build(registry);
    this.cached = { sources, generations, value };
    return value;
  }
}
