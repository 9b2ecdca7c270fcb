import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { goCompare } from '../../lib/go/strings.js';

/** A Namespace status condition (core/v1 NamespaceCondition). */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

/** What one pass of emptying a terminating namespace left: objects by `<resource>.<group>`, and by finalizer. */
export interface RemainingContent {
  byResource: Map<string, number>;
  byFinalizer: Map<string, number>;
}

/**
 * The conditions kube's namespace controller keeps on a terminating namespace, in its order, with the texts of their
 * "all is well" (False) variants. kapi discovers and parses nothing remotely, so the first three stay False.
 */
const okConditions: readonly Omit<NamespaceCondition, 'lastTransitionTime'>[] = [
  { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
  { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
];

/** Counts under `key` (a resource's `<plural>.<group>`, the core group's with its empty group: `pods.`, as kube writes it). */
export function countRemaining(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * The namespace's conditions after a pass, as kube's updateConditions makes them: each of the five types updated in
 * place (its lastTransitionTime kept unless its status changed) or appended; other conditions kept. Undefined when
 * nothing changed.
 */
export function namespaceDeletionConditions(current: readonly NamespaceCondition[], remaining: RemainingContent, now = new Date()): NamespaceCondition[] | undefined {
  const listed = (counts: Map<string, number>, format: (key: string, n: number) => string) =>
    [...counts].map(([key, n]) => format(key, n)).sort(goCompare).join(', ');
  const observed = okConditions.map((ok) => {
    if (ok.type === 'NamespaceContentRemaining' && remaining.byResource.size > 0) {
      return { type: ok.type, status: 'True' as const, reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${listed(remaining.byResource, (r, n) => `${r} has ${n} resource instances`)}` };
    }
    if (ok.type === 'NamespaceFinalizersRemaining' && remaining.byFinalizer.size > 0) {
      return { type: ok.type, status: 'True' as const, reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${listed(remaining.byFinalizer, (f, n) => `${f} in ${n} resource instances`)}` };
    }
    return ok;
  });
  const next = current.map((c) => ({ ...c }));
  let changed = false;
  for (const want of observed) {
    const have = next.find((c) => c.type === want.type);
    if (!have) {
      // in the order of Go's NamespaceCondition fields, as kube writes it
      next.push({ type: want.type, status: want.status, lastTransitionTime: formatDateRFC3339(now), reason: want.reason, message: want.message });
      changed = true;
    } else if (have.status !== want.status || have.reason !== want.reason || have.message !== want.message) {
      if (have.status !== want.status) have.lastTransitionTime = formatDateRFC3339(now);
      Object.assign(have, { status: want.status, reason: want.reason, message: want.message });
      changed = true;
    }
  }
  return changed ? next : undefined;
}
