import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../lib/k8s/finalizers.js';
import type { ResourceType } from '../contracts/resource-type.js';

/** How a delete asks the garbage collector to treat the object's dependents (DeleteOptions, already validated). */
export interface DeletePropagation {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** Deprecated form of propagationPolicy Orphan (true) / Background (false); never set together with it. */
  orphanDependents?: boolean;
}

/** kube's DefaultGarbageCollectionPolicy of a kind. */
type GarbageCollectionPolicy = NonNullable<ResourceType['garbageCollectionPolicy']>;

/**
 * The finalizers an object gets when it is deleted with `propagation` (kube's registry.Store
 * deletionFinalizersForGarbageCollection over shouldOrphanDependents / shouldDeleteDependents): the request's choice
 * wins, else the object's own `orphan` / `foregroundDeletion` finalizer stays, else the kind's default (orphan for
 * OrphanDependents, none otherwise); a kind that does not support garbage collection keeps neither. Undefined when the
 * finalizers stay as they are.
 */
export function finalizersForDeletion(finalizers: readonly string[], propagation: DeletePropagation, policy: GarbageCollectionPolicy = 'DeleteDependents'): string[] | undefined {
  const supported = policy !== 'Unsupported';
  const orphan = supported && (decide(finalizers, propagation, 'Orphan') ?? policy === 'OrphanDependents');
  const foreground = supported && (decide(finalizers, propagation, 'Foreground') ?? false);
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (orphan) next.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (foreground) next.push(FINALIZER_DELETE_DEPENDENTS);
  const same = new Set(next).size === new Set(finalizers).size && next.every((f) => finalizers.includes(f));
  return same ? undefined : next;
}

/**
 * Whether the deletion ends with `policy` (Orphan or Foreground) by the options or the object's finalizers; undefined
 * when neither says (the kind's default decides).
 */
function decide(finalizers: readonly string[], { propagationPolicy, orphanDependents }: DeletePropagation, policy: 'Orphan' | 'Foreground'): boolean | undefined {
  if (orphanDependents !== undefined) return policy === 'Orphan' && orphanDependents;
  if (propagationPolicy !== undefined) return propagationPolicy === policy;
  // The first GC finalizer the object carries decides (validation keeps both from being set).
  const own = finalizers.find((f) => f === FINALIZER_ORPHAN_DEPENDENTS || f === FINALIZER_DELETE_DEPENDENTS);
  return own === undefined ? undefined : own === (policy === 'Orphan' ? FINALIZER_ORPHAN_DEPENDENTS : FINALIZER_DELETE_DEPENDENTS);
}
