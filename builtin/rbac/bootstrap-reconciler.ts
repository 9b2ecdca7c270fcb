import type { DependencyContainer } from 'tsyringe';
import { ApiError } from '../../core/contracts/api-error.js';
import type { Controller } from '../../core/contracts/controller.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { covers } from '../../lib/rbac/rule-coverage.js';
import { autoUpdateAnnotation, bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapNamespaceRoles } from './bootstrap-policy.js';
import { clusterRoleBindingResourceRef, clusterRoleResourceRef, roleResourceRef } from './rbac-resources.js';
import type { Binding, ClusterRole, Role } from './rbac-types.js';

/**
 * kube-apiserver's `rbac/bootstrap-roles` post-start hook: at start, the bootstrap ClusterRoles, ClusterRoleBindings
 * and Roles (of kube-system, which the namespaces module's controller creates first) are created when missing and,
 * unless annotated `rbac.authorization.kubernetes.io/autoupdate: "false"`, reconciled: missing rules, subjects, labels and annotations added (what was added by hand is kept), an
 * aggregated role's aggregationRule restored. Runs before the server serves.
 */
export class BootstrapPolicyReconciler implements Controller {
  readonly name = 'rbac/bootstrap-roles';
  readonly resources = [clusterRoleResourceRef, clusterRoleBindingResourceRef, roleResourceRef];

  constructor(private readonly container: DependencyContainer) {}

  async start(): Promise<void> {
    const objects = this.container.resolve(Tokens.Objects);
    const roles = objects.forResource<ClusterRole>(clusterRoleResourceRef, { fieldManager: 'kube-apiserver' });
    const bindings = objects.forResource<Binding>(clusterRoleBindingResourceRef, { fieldManager: 'kube-apiserver' });
    const namespaceRoles = objects.forResource<Role>(roleResourceRef, { fieldManager: 'kube-apiserver' });
    for (const role of bootstrapClusterRoles()) await reconcile(roles, role, reconcileRole);
    for (const binding of bootstrapClusterRoleBindings()) await reconcile(bindings, binding, reconcileBinding);
    for (const role of bootstrapNamespaceRoles()) await reconcile(namespaceRoles, role, reconcileRole);
  }

  async stop(): Promise<void> {}
}

/** Creates `expected`, or updates what is stored with `merge` (which returns undefined when nothing is missing). */
async function reconcile<T extends ClusterRole | Binding>(client: ResourceClient<T>, expected: T, merge: (current: T, expected: T) => T | undefined): Promise<void> {
  const name = expected.metadata!.name!;
  const namespace = expected.metadata!.namespace ?? '';
  const current = await client.get(namespace, name);
  if (!current) {
    try {
      await client.create(expected);
    } catch (err) {
      if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err; // another kapi on the same storage
    }
    return;
  }
  if (current.metadata?.annotations?.[autoUpdateAnnotation] === 'false' || !merge(structuredClone(current), expected)) return;
  await client.update(namespace, name, (latest) => merge(latest, expected) ?? latest);
}

/** Adds missing labels and annotations; true when something was added. */
function mergeMetadata(current: ClusterRole | Binding, expected: ClusterRole | Binding): boolean {
  let changed = false;
  const meta = (current.metadata ??= {});
  for (const field of ['labels', 'annotations'] as const) {
    for (const [k, v] of Object.entries(expected.metadata?.[field] ?? {})) {
      if (meta[field]?.[k] !== undefined) continue;
      (meta[field] ??= {})[k] = v;
      changed = true;
    }
  }
  return changed;
}

function reconcileRole(current: ClusterRole, expected: ClusterRole): ClusterRole | undefined {
  let changed = mergeMetadata(current, expected);
  if (expected.aggregationRule) {
    // the aggregation controller owns the rules; the selectors are kube's
    if (JSON.stringify(current.aggregationRule) !== JSON.stringify(expected.aggregationRule)) {
      current.aggregationRule = expected.aggregationRule;
      changed = true;
    }
  } else {
    const { missing } = covers(current.rules ?? [], expected.rules ?? []);
    if (missing.length > 0) {
      current.rules = [...(current.rules ?? []), ...missing];
      changed = true;
    }
  }
  return changed ? current : undefined;
}

function reconcileBinding(current: Binding, expected: Binding): Binding | undefined {
  let changed = mergeMetadata(current, expected);
  const subjects = current.subjects ?? [];
  for (const s of expected.subjects ?? []) {
    if (subjects.some((c) => c.kind === s.kind && c.name === s.name && (c.namespace ?? '') === (s.namespace ?? ''))) continue;
    subjects.push(s);
    changed = true;
  }
  current.subjects = subjects;
  return changed ? current : undefined;
}
