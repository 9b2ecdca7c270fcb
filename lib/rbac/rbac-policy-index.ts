import type { PolicyRule, RoleRef, RuleRequest, Subject } from './policy-rule.js';
import { ruleAllows } from './rule-matching.js';
import { serviceAccountUsername } from '../serviceaccount/service-account-names.js';

/** Who asks: a user name and groups (authentication.k8s.io UserInfo's part RBAC reads). */
export interface RbacUser {
  username: string;
  groups: readonly string[];
}

interface IndexedBinding {
  kind: 'ClusterRoleBinding' | 'RoleBinding';
  name: string;
  namespace: string;
  roleRef: RoleRef;
}

/** A binding key → the keys of its subjects, and subject key → bindings: the index answers in O(the user's bindings). */
class SubjectIndex {
  private readonly bySubject = new Map<string, Map<string, IndexedBinding>>();
  private readonly subjectsOf = new Map<string, string[]>();

  set(key: string, binding: IndexedBinding, subjects: readonly string[]): void {
    this.delete(key);
    this.subjectsOf.set(key, [...subjects]);
    for (const s of subjects) {
      let bindings = this.bySubject.get(s);
      if (!bindings) this.bySubject.set(s, (bindings = new Map()));
      bindings.set(key, binding);
    }
  }

  delete(key: string): void {
    for (const s of this.subjectsOf.get(key) ?? []) {
      const bindings = this.bySubject.get(s);
      bindings?.delete(key);
      if (bindings?.size === 0) this.bySubject.delete(s);
    }
    this.subjectsOf.delete(key);
  }

  get size(): number {
    return this.subjectsOf.size;
  }

  /**
   * Visits the bindings naming the user or one of the groups, each once, the user's first; stops (and returns true)
   * when `visit` returns true. Plain loops: this runs for every authorized request.
   */
  visitBindings(user: RbacUser, visit: (binding: IndexedBinding) => boolean): boolean {
    const own = this.bySubject.get(userKey(user.username));
    let seen: Set<IndexedBinding> | undefined;
    if (own) {
      for (const b of own.values()) if (visit(b)) return true;
      if (user.groups.length > 0) seen = new Set(own.values());
    }
    for (const group of user.groups) {
      const bindings = this.bySubject.get(groupKey(group));
      if (!bindings) continue;
      for (const b of bindings.values()) {
        if (seen?.has(b)) continue;
        (seen ??= new Set()).add(b);
        if (visit(b)) return true;
      }
    }
    return false;
  }
}

const userKey = (name: string) => `User:${name}`;
const groupKey = (name: string) => `Group:${name}`;

/** The index key of a subject; a ServiceAccount is its user name (namespace defaulting to the binding's). */
function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return userKey(subject.name);
    case 'Group':
      return groupKey(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace ? userKey(serviceAccountUsername(namespace, subject.name)) : undefined;
    }
    default:
      return undefined;
  }
}

/** Visits one binding's rules; `error` when its role is missing. Returns true to stop. */
type RuleVisitor = (binding: IndexedBinding, rules: readonly PolicyRule[] | undefined, error: string | undefined) => boolean;

/**
 * RBAC's roles and bindings, indexed by subject so that answering for a user costs the user's bindings, not all of
 * them (kube's authorizer lists every ClusterRoleBinding per request). Fed by whoever follows the objects.
 */
export class RbacPolicyIndex {
  private readonly roles = new Map<string, readonly PolicyRule[]>();
  private readonly clusterRoles = new Map<string, readonly PolicyRule[]>();
  private readonly clusterBindings = new SubjectIndex();
  private readonly roleBindings = new Map<string, SubjectIndex>();

  setRole(namespace: string, name: string, rules: readonly PolicyRule[]): void {
    if (namespace) this.roles.set(`${namespace}/${name}`, rules);
    else this.clusterRoles.set(name, rules);
  }

  deleteRole(namespace: string, name: string): void {
    if (namespace) this.roles.delete(`${namespace}/${name}`);
    else this.clusterRoles.delete(name);
  }

  setBinding(namespace: string, name: string, roleRef: RoleRef, subjects: readonly Subject[]): void {
    const binding: IndexedBinding = { kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding', name, namespace, roleRef };
    const keys = [...new Set(subjects.map((s) => subjectKey(s, namespace)).filter((k): k is string => k !== undefined))];
    if (!namespace) return this.clusterBindings.set(name, binding, keys);
    let index = this.roleBindings.get(namespace);
    if (!index) this.roleBindings.set(namespace, (index = new SubjectIndex()));
    index.set(name, binding, keys);
  }

  deleteBinding(namespace: string, name: string): void {
    if (!namespace) return this.clusterBindings.delete(name);
    const index = this.roleBindings.get(namespace);
    index?.delete(name);
    if (index?.size === 0) this.roleBindings.delete(namespace);
  }

  /** Whether the user's rules allow the request, else why not (kube's `RBAC: …` reason, '' when nothing failed). */
  authorize(user: RbacUser, namespace: string, request: RuleRequest): { allowed: boolean; reason: string } {
    const errors: string[] = [];
    let allowed = false;
    this.visit(user, namespace, (_binding, rules, error) => {
      if (error) errors.push(error);
      allowed = rules?.some((r) => ruleAllows(request, r)) ?? false;
      return allowed;
    });
    if (allowed) return { allowed, reason: '' };
    return { allowed, reason: errors.length ? `RBAC: ${aggregate(errors)}` : '' };
  }

  /** Every rule the user holds in `namespace` (cluster-wide ones included), and the roles that could not be found. */
  rulesFor(user: RbacUser, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visit(user, namespace, (_binding, found, error) => {
      if (error) errors.push(error);
      if (found) rules.push(...found);
      return false;
    });
    return { rules, errors };
  }

  /** The rules of a roleRef from a binding in `namespace` ('' for a ClusterRoleBinding), or undefined. */
  roleRefRules(ref: RoleRef, namespace: string): readonly PolicyRule[] | undefined {
    return ref.kind === 'Role' ? this.roles.get(`${namespace}/${ref.name}`) : ref.kind === 'ClusterRole' ? this.clusterRoles.get(ref.name) : undefined;
  }

  /** ClusterRoleBindings first, then the namespace's RoleBindings, as kube's VisitRulesFor. */
  private visit(user: RbacUser, namespace: string, visitor: RuleVisitor): void {
    const visitBinding = (binding: IndexedBinding) => {
      const rules = this.roleRefRules(binding.roleRef, binding.namespace);
      const error = rules ? undefined : `${binding.roleRef.kind.toLowerCase()}.rbac.authorization.k8s.io ${JSON.stringify(binding.roleRef.name)} not found`;
      return visitor(binding, rules, error);
    };
    if (this.clusterBindings.visitBindings(user, visitBinding)) return;
    if (namespace) this.roleBindings.get(namespace)?.visitBindings(user, visitBinding);
  }
}

/** k8s.io/apimachinery's utilerrors.NewAggregate text: distinct messages, one as itself, more as `[a, b]`. */
export function aggregate(errors: readonly string[]): string {
  const distinct = [...new Set(errors)];
  return distinct.length === 1 ? distinct[0]! : `[${distinct.join(', ')}]`;
}
