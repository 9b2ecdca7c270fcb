import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType, labelSelectorGoType } from '../../schemas/object-meta-go-type.js';

const policyRule = t.struct('v1.PolicyRule', {
  verbs: t.slice(t.string()),
  apiGroups: t.slice(t.string()),
  resources: t.slice(t.string()),
  resourceNames: t.slice(t.string()),
  nonResourceURLs: t.slice(t.string()),
});

const subject = t.struct('v1.Subject', { kind: t.string(), apiGroup: t.string(), name: t.string(), namespace: t.string() });
const roleRef = t.struct('v1.RoleRef', { apiGroup: t.string(), kind: t.string(), name: t.string() });

/** rbac.authorization.k8s.io/v1 Role as kube's decoder sees it. */
export const roleGoType: GoStructType = kindGoType('v1.Role', { rules: t.slice(policyRule) });

/** rbac.authorization.k8s.io/v1 ClusterRole. */
export const clusterRoleGoType: GoStructType = kindGoType('v1.ClusterRole', {
  rules: t.slice(policyRule),
  aggregationRule: t.struct('v1.AggregationRule', { clusterRoleSelectors: t.slice(labelSelectorGoType) }),
});

/** rbac.authorization.k8s.io/v1 RoleBinding. */
export const roleBindingGoType: GoStructType = kindGoType('v1.RoleBinding', { subjects: t.slice(subject), roleRef });

/** rbac.authorization.k8s.io/v1 ClusterRoleBinding. */
export const clusterRoleBindingGoType: GoStructType = kindGoType('v1.ClusterRoleBinding', { subjects: t.slice(subject), roleRef });
