import type { ResourceType } from '../contracts/resource-type.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import { qualifiedName } from '../contracts/resource-type.js';
import type { ObjectConverter } from '../contracts/object-converter.js';
import { converterFor } from '../conversion/converters.js';

/** The server's ResourceRegistry: resource types by `plural.group`. */
export class ResourceTypeRegistry implements ResourceRegistry {
  private readonly byKey = new Map<string, ResourceType>();
  private readonly listeners = new Set<() => void>();
  private generationCounter = 0;

  get generation(): number {
    return this.generationCounter;
  }

  set(rt: ResourceType): void {
    const key = qualifiedName(rt);
    const existing = this.byKey.get(key);
    if (rt.definedBy && existing && !existing.definedBy) return; // a CRD never shadows what kapi serves itself
    this.byKey.set(key, rt);
    this.changed();
  }

  remove(group: string, plural: string): void {
    if (this.byKey.delete(group ? `${plural}.${group}` : plural)) this.changed();
  }

  get(group: string, plural: string): ResourceType | undefined {
    return this.byKey.get(group ? `${plural}.${group}` : plural);
  }

  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    const rt = this.get(group, plural);
    return rt && rt.versions.some((v) => v.name === version && v.served) ? rt : undefined;
  }

  converterFor(rt: ResourceType): ObjectConverter {
    return converterFor(rt);
  }

  all(): ResourceType[] {
    return [...this.byKey.values()];
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.generationCounter++;
    for (const l of this.listeners) l();
  }
}
