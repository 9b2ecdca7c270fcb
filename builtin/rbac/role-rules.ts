import { errors } from '../../core/contracts/api-error.js';
import type { Informer } from '../../core/contracts/informer.js';
import { rbacGroup, type Role, type RoleRef, type PolicyRule } from './rbac-types.js';

/** The rules a roleRef names, read from the Role and ClusterRole informers (kube's GetRoleReferenceRules). */
export class RoleRules {
  constructor(
    private readonly roles: () => Informer,
    private readonly clusterRoles: () => Informer,
  ) {}

  /** Throws kube's 404 when the role does not exist. */
  async roleRefRules(ref: RoleRef, namespace: string): Promise<PolicyRule[]> {
    const namespaced = ref.kind === 'Role';
    const informer = namespaced ? this.roles() : this.clusterRoles();
    await informer.synced();
    const role = informer.current().get(namespaced ? `${namespace}/${ref.name}` : ref.name) as Role | undefined;
    if (!role) throw errors.notFound({ group: rbacGroup, resource: namespaced ? 'roles' : 'clusterroles', name: ref.name });
    return role.rules ?? [];
  }
}
