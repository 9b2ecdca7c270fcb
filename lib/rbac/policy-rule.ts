/** rbac.authorization.k8s.io/v1 PolicyRule: what a Role or ClusterRole grants. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** rbac.authorization.k8s.io/v1 Subject: who a binding grants its role to. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

/** rbac.authorization.k8s.io/v1 RoleRef: the Role or ClusterRole a binding grants. */
export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

/** What a request asks for, as RBAC matches it (kube's authorizer.Attributes). */
export interface RuleRequest {
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

/** `*` in verbs, apiGroups, resources and nonResourceURLs (kube's VerbAll, APIGroupAll, ResourceAll, NonResourceAll). */
export const ALL = '*';
