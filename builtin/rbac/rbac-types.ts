import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { LabelSelectorObject } from '../../lib/k8s/labels/label-selector.js';
import type { PolicyRule, RoleRef, Subject } from '../../lib/rbac/policy-rule.js';

export type { PolicyRule, RoleRef, Subject };

/** The API group of RBAC's kinds (and of User and Group subjects, and of every roleRef). */
export const rbacGroup = 'rbac.authorization.k8s.io';

export interface Role extends KubeObject {
  rules?: PolicyRule[] | null;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[];
}

export interface ClusterRole extends Role {
  aggregationRule?: AggregationRule;
}

/** A RoleBinding or a ClusterRoleBinding. */
export interface Binding extends KubeObject {
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}
