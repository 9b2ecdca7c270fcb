import type { UserInfo } from './authenticator.js';
import type { PolicyRule } from '../../lib/rbac/policy-rule.js';

/** What a request wants to do (authorization.k8s.io ResourceAttributes / NonResourceAttributes). */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup?: string;
  apiVersion?: string;
  namespace?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

/**
 * What a user may do in a namespace, as an authorizer knows it (kube's RuleResolver): resource and non-resource
 * rules, `incomplete` when the authorizer could not tell everything (a binding to a missing role), with why in
 * `evaluationError`.
 */
export interface SubjectRules {
  rules: PolicyRule[];
  incomplete: boolean;
  evaluationError?: string;
}

/** An authorizer plugin. Authorizers are asked in order; the first `allow` or `deny` decides; none → 403. */
export interface Authorizer {
  readonly name: string;
  authorize(attrs: AuthorizationAttributes): Promise<{ decision: Decision; reason?: string }>;
  /**
   * Optional: the rules `user` holds in `namespace` ('' for the cluster-wide ones only), for
   * SelfSubjectRulesReview (`kubectl auth can-i --list`) and RBAC's escalation checks. An authorizer without it adds
   * nothing to the list (kube's: `incomplete` then).
   */
  rulesFor?(user: UserInfo, namespace: string): SubjectRules;
}
