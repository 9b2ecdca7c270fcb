import type { ResourceType } from '../contracts/resource-type.js';
import type { RegistryChange, ResourceRegistry } from '../contracts/resource-registry.js';
import { qualifiedName } from '../contracts/resource-type.js';
import type { ObjectConverter } from '../contracts/object-converter.js';
import { converterFor } from '../conversion/converters.js';
import type { StrategyRegistration } from '../contracts/define-strategy.js';
import { composeStrategies } from './composed-strategy.js';

/** The server's ResourceRegistry: resource types by `plural.group`. */
export class ResourceTypeRegistry implements ResourceRegistry {
  private readonly byKey = new Map<string, ResourceType>();
  private readonly listeners = new Set<(change: RegistryChange) => void>();
  private generationCounter = 0;
  private strategies: readonly StrategyRegistration[] = [];

  get generation(): number {
    return this.generationCounter;
  }

  set(rt: ResourceType): void {
    const key = qualifiedName(rt);
    const existing = this.byKey.get(key);
    if (rt.definedBy && existing && !existing.definedBy) return; // a CRD never shadows what kapi serves itself
    const current = this.withRegisteredStrategies(rt);
    this.byKey.set(key, current);
    this.changed({ previous: existing, current });
  }

  /**
   * The strategies registered by group/kind (`Tokens.Strategy`), composed after the own strategy of every type set
   * from now on: the server hands them over once its modules are registered, before any type is set.
   */
  useStrategies(registrations: readonly StrategyRegistration[]): void {
    for (const r of registrations) {
      if (typeof r?.group !== 'string' || typeof r.kind !== 'string' || !r.kind) {
        throw new TypeError("kapi: a strategy registration (Tokens.Strategy) names its group ('' for the core group) and kind: defineStrategy({ group, kind, … })");
      }
    }
    this.strategies = registrations;
  }

  remove(group: string, plural: string): void {
    const key = group ? `${plural}.${group}` : plural;
    const previous = this.byKey.get(key);
    if (previous && this.byKey.delete(key)) this.changed({ previous });
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

  onChange(listener: (change: RegistryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `rt` with the strategies registered for its group/kind run after its own (`rt` itself is left as it is). */
  private withRegisteredStrategies(rt: ResourceType): ResourceType {
    const registered = this.strategies.filter((s) => s.group === rt.group && s.kind === rt.names.kind);
    if (!registered.length) return rt;
    return { ...rt, strategy: composeStrategies(rt.strategy ? [rt.strategy, ...registered] : registered) };
  }

  private changed(change: RegistryChange): void {
    this.generationCounter++;
    for (const l of this.listeners) l(change);
  }
}
