import type { KubeObject, ResourceType } from './resource-type.js';

/** A change an informer saw: from the server's watch cache, or found by comparing states after it re-synced. */
export interface InformerEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The new state (for DELETED: the last one). Shared: never mutate it. */
  object: KubeObject;
}

/**
 * The objects of one resource as storage has them (like client-go's shared informers), fed by the server's watch
 * cache of that resource: every kapi instance on the same storage sees the same objects, and following them costs no
 * storage watch of its own. When the cache loses storage, the informer re-syncs and reports what changed meanwhile.
 */
export interface Informer {
  /** Resolves once the first state is in. */
  synced(): Promise<void>;
  /** The objects, keyed `namespace/name` (`name` alone for cluster-scoped ones). Do not mutate them. */
  current(): ReadonlyMap<string, KubeObject>;
  /** Calls `onEvents` with each batch of changes from now on; returns the function that unsubscribes. */
  subscribe(onEvents: (events: InformerEvent[]) => void): () => void;
}

/** The shared informers of a server: one per resource, started on first use, stopped with the server. */
export interface Informers {
  forResource(rt: ResourceType): Informer;
}
