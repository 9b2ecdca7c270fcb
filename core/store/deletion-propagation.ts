import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../lib/k8s/finalizers.js';

/** How a delete asks the garbage collector to treat the object's dependents (DeleteOptions, already validated). */
export interface DeletePropagation {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** Deprecated form of propagationPolicy Orphan (true) / Background (false); never set together with it. */
  orphanDependents?: boolean;
}

/**
 * The finalizers an object gets when it is deleted with `propagation` (kube's registry.Store
 * deletionFinalizersForGarbageCollection over shouldOrphanDependents / shouldDeleteDependents, for kinds whose default
 * policy is DeleteDependents): the request's choice wins, else the object's own `orphan` / `foregroundDeletion`
 * finalizer stays, else none (Background). Undefined when the finalizers stay as they are.
 */
export function finalizersForDeletion(finalizers: readonly string[], propagation: DeletePropagation): string[] | undefined {
  const orphan = decide(finalizers, propagation, 'Orphan');
  const foreground = decide(finalizers, propagation, 'Foreground');
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (orphan) next.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (foreground) next.push(FINALIZER_DELETE_DEPENDENTS);
  const same = new Set(next).size === new Set(finalizers).size && next.every((f) => finalizers.includes(f));
  return same ? undefined : next;
}

/** Whether the deletion ends with `policy` (Orphan or Foreground) for these finalizers and options. */
function decide(finalizers: readonly string[], { propagationPolicy, orphanDependents }: DeletePropagation, policy: 'Orphan' | 'Foreground'): boolean {
  if (orphanDependents !== undefined) return policy === 'Orphan' && orphanDependents;
  if (propagationPolicy !== undefined) return propagationPolicy === policy;
  // The first GC finalizer the object carries decides (validation keeps both from being set).
  const own = finalizers.find((f) => f === FINALIZER_ORPHAN_DEPENDENTS || f === FINALIZER_DELETE_DEPENDENTS);
  return own === (policy === 'Orphan' ? FINALIZER_ORPHAN_DEPENDENTS : FINALIZER_DELETE_DEPENDENTS);
}
