import type { ResourceRegistry } from '../contracts/resource-registry.js';

/** A value built from the registry, rebuilt only when the registry's generation (or the registry) changes. */
export class GenerationCache<T> {
  private cached?: { registry: ResourceRegistry; generation: number; value: T };

  constructor(private readonly build: (registry: ResourceRegistry) => T) {}

  get(registry: ResourceRegistry): T {
    const c = this.cached;
    if (c && c.registry === registry && c.generation === registry.generation) return c.value;
    const value = this.build(registry);
    this.cached = { registry, generation: registry.generation, value };
    return value;
  }
}
