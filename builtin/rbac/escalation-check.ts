import { errors } from '../../core/contracts/api-error.js';
import type { Authorizer } from '../../core/contracts/authorizer.js';
import type { KubeObject, WriteAuthorization } from '../../core/contracts/resource-type.js';
import { covers } from '../../lib/rbac/rule-coverage.js';
import { escalationMessage } from '../../lib/rbac/rule-text.js';
import type { PolicyRule } from '../../lib/rbac/policy-rule.js';
import { rbacGroup, type Binding, type ClusterRole } from './rbac-types.js';
import type { RoleRules } from './role-rules.js';

/** kube's user.SystemPrivilegedGroup: its members (the loopback client, the admin) may grant anything. */
const privilegedGroup = 'system:masters';

/** kube's fullAuthority: what setting an aggregationRule requires, since it can gather anything. */
const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/**
 * kube's RBAC escalation prevention (pkg/registry/rbac): a Role or ClusterRole may only grant what its writer holds,
 * unless the writer may `escalate` it; a binding may only bind a role whose rules its writer holds, unless the writer
 * may `bind` it. Members of system:masters skip both.
 */
export class EscalationCheck {
  constructor(
    private readonly authorizers: () => readonly Authorizer[],
    private readonly roles: RoleRules,
  ) {}

  async checkRole(role: ClusterRole, old: ClusterRole | undefined, attrs: WriteAuthorization): Promise<void> {
    const resource = attrs.namespace ? 'roles' : 'clusterroles';
    if (this.privileged(attrs) || (await this.allowed(attrs, 'escalate', resource, attrs.name))) return;
    if (old && onlyGcFieldsChanged(role, old)) return;
    const forbidden = (text: string) => errors.forbidden({ group: rbacGroup, resource, name: attrs.name }, text);
    this.confirmNoEscalation(attrs, role.rules ?? [], forbidden);
    if (role.aggregationRule && !sameJSON(old?.aggregationRule, role.aggregationRule)) {
      this.confirmNoEscalation(attrs, fullAuthority, () => forbidden('must have cluster-admin privileges to use the aggregationRule'));
    }
  }

  async checkBinding(binding: Binding, old: Binding | undefined, attrs: WriteAuthorization): Promise<void> {
    const resource = attrs.namespace ? 'rolebindings' : 'clusterrolebindings';
    if (this.privileged(attrs)) return;
    const ref = binding.roleRef;
    if (old && onlyGcFieldsChanged(binding, old)) return;
    if (ref?.apiGroup === rbacGroup && (await this.allowed(attrs, 'bind', ref.kind === 'Role' ? 'roles' : 'clusterroles', ref.name))) return;
    const rules = await this.roles.roleRefRules(ref, attrs.namespace);
    this.confirmNoEscalation(attrs, rules, (text) => errors.forbidden({ group: rbacGroup, resource, name: attrs.name }, text));
  }

  /** A member of system:masters, or a server without authorization (nothing to escalate beyond). */
  private privileged(attrs: WriteAuthorization): boolean {
    return attrs.user.groups.includes(privilegedGroup) || this.authorizers().length === 0;
  }

  /** kube's RoleEscalationAuthorized and BindingAuthorized: the verb on the role, asked of the authorizers in order. */
  private async allowed(attrs: WriteAuthorization, verb: string, resource: string, name: string): Promise<boolean> {
    for (const a of this.authorizers()) {
      const { decision } = await a.authorize({
        user: attrs.user,
        verb,
        isResourceRequest: true,
        path: '',
        apiGroup: rbacGroup,
        apiVersion: '*',
        resource,
        name,
        namespace: attrs.namespace,
      });
      if (decision !== 'no-opinion') return decision === 'allow';
    }
    return false;
  }

  /** kube's ConfirmNoEscalation: the writer's rules in the namespace must cover `rules`. */
  private confirmNoEscalation(attrs: WriteAuthorization, rules: readonly PolicyRule[], refuse: (text: string) => Error): void {
    const resolver = this.authorizers().find((a) => a.rulesFor);
    const owned = resolver?.rulesFor?.(attrs.user, attrs.namespace);
    const { covered, missing } = covers(owned?.rules ?? [], rules);
    if (covered) return;
    let text = escalationMessage(attrs.user.username, attrs.user.groups, missing);
    if (owned?.evaluationError) text += `; resolution errors: [${owned.evaluationError}]`;
    throw refuse(text);
  }
}

function sameJSON(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** What the server maintains itself, besides the GC's fields: never part of what a writer changes. */
const systemFields = ['resourceVersion', 'managedFields', 'generation', 'creationTimestamp', 'uid'] as const;

/**
 * kube's IsOnlyMutatingGCFields: an update changing nothing but ownerReferences and finalizers (the garbage collector
 * deleting the object) is not checked; any other change, labels included, is.
 */
function onlyGcFieldsChanged(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, ...meta } = o.metadata ?? {};
    for (const f of systemFields) delete meta[f];
    return { ...o, metadata: meta };
  };
  return sameJSON(canonicalJSON(strip(obj)), canonicalJSON(strip(old)));
}

/** Key order does not make two objects differ. */
function canonicalJSON(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJSON);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonicalJSON((value as Record<string, unknown>)[k])]));
}
