import type { ResourceType } from './resource-type.js';
import type { ObjectConverter } from './object-converter.js';

/**
 * The set of resource types the server serves right now. Built-in kinds are added at start; CRDs are added and
 * removed as they are established or deleted. Listeners (discovery, OpenAPI caches) are told of every change.
 */
export interface ResourceRegistry {
  /** Bumped on every change; caches compare it to know when to rebuild. */
  readonly generation: number;
  /**
   * Adds or replaces a type; a CRD's type never takes the place of a built-in one (kube's own handlers come first).
   * The strategies registered for its group/kind (`Tokens.Strategy`) are composed after its own in the type served.
   */
  set(rt: ResourceType): void;
  remove(group: string, plural: string): void;
  /** The type serving `plural` in `group` (regardless of version). */
  get(group: string, plural: string): ResourceType | undefined;
  /** The type serving `plural` in `group` at a served `version`. */
  lookup(group: string, version: string, plural: string): ResourceType | undefined;
  all(): ResourceType[];
  /** How objects of `rt` convert between its versions (a CRD's conversion strategy; None for built-in kinds). */
  converterFor(rt: ResourceType): ObjectConverter;
  /**
   * Calls `listener` after every change, with the one type it concerns, so that a listener can act on that type alone
   * (one acting on every type served at each change makes registering N CRDs quadratic); returns the function that
   * unsubscribes it.
   */
  onChange(listener: (change: RegistryChange) => void): () => void;
}

/** One change of the registry: the type served under one `plural.group` before it and after it (absent: none). */
export interface RegistryChange {
  previous?: ResourceType;
  current?: ResourceType;
}
