import type { ResourceType } from './resource-type.js';
import { qualifiedName } from './resource-type.js';

export type RegistryListener = () => void;

/**
 * The set of resource types the server serves right now. Built-in kinds are added at start; CRDs are added and
 * removed as they are established or deleted. Listeners (discovery, OpenAPI caches) are told of every change.
 */
export class ResourceRegistry {
  private readonly byKey = new Map<string, ResourceType>();
  private readonly listeners = new Set<RegistryListener>();
  private generationCounter = 0;

  /** Bumped on every change; caches compare it to know when to rebuild. */
  get generation(): number {
    return this.generationCounter;
  }

  /** Adds or replaces a type; a CRD's type never takes the place of a built-in one (kube's own handlers come first). */
  set(rt: ResourceType): void {
    const key = qualifiedName(rt);
    const existing = this.byKey.get(key);
    if (rt.custom && existing && !existing.custom) return;
    this.byKey.set(key, rt);
    this.changed();
  }

  remove(group: string, plural: string): void {
    if (this.byKey.delete(group ? `${plural}.${group}` : plural)) this.changed();
  }

  /** The type serving `plural` in `group` (regardless of version). */
  get(group: string, plural: string): ResourceType | undefined {
    return this.byKey.get(group ? `${plural}.${group}` : plural);
  }

  /** The type serving `plural` in `group` at a served `version`. */
  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    const rt = this.get(group, plural);
    return rt && rt.versions.some((v) => v.name === version && v.served) ? rt : undefined;
  }

  all(): ResourceType[] {
    return [...this.byKey.values()];
  }

  onChange(listener: RegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.generationCounter++;
    for (const l of this.listeners) l();
  }
}
