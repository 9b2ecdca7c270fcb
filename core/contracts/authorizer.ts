import type { UserInfo } from './authenticator.js';
import type { PolicyRule } from '../../lib/rbac/policy-rule.js';
import type { ReviewSelectorRequirement } from '../../lib/k8s/authorization-selectors.js';

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
  /**
   * What a list, watch or deletecollection selects, as requirements (kube's AuthorizeWithSelectors): the request's
   * `fieldSelector` / `labelSelector` as far as they parse, or a SubjectAccessReview's. They only narrow the request:
   * RBAC ignores them; webhook authorizers are sent them.
   */
  fieldSelector?: SelectorRequirement[];
  labelSelector?: SelectorRequirement[];
}

/** One selector requirement as SubjectAccessReviews carry it (metav1's FieldSelectorRequirement and LabelSelectorRequirement). */
export type SelectorRequirement = ReviewSelectorRequirement;

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

/**
 * An authorizer's answer. `evaluationError` says what went wrong while deciding (kube's authorizers return an error
 * beside their decision: a webhook that failed gives its failure policy's decision and the failure).
 */
export interface AuthorizerAnswer {
  decision: Decision;
  reason?: string;
  evaluationError?: string;
}

/** An authorizer plugin. Authorizers are asked in order; the first `allow` or `deny` decides; none → 403. */
export interface Authorizer {
  readonly name: string;
  authorize(attrs: AuthorizationAttributes): Promise<AuthorizerAnswer>;
  /**
   * Optional: the rules `user` holds in `namespace` ('' for the cluster-wide ones only), for
   * SelfSubjectRulesReview (`kubectl auth can-i --list`) and RBAC's escalation checks. An authorizer without it adds
   * nothing to the list and makes it `incomplete`, as kube's webhook authorizer (see unionRulesFor).
   */
  rulesFor?(user: UserInfo, namespace: string): SubjectRules;
}

/**
 * kube's union RulesFor: the rules of every authorizer in order, `incomplete` when one could not tell everything, and
 * their errors aggregated — an authorizer without `rulesFor` counts as kube's webhook authorizer does:
 * `<name> authorizer does not support user rule resolution`.
 */
export function unionRulesFor(authorizers: readonly Authorizer[], user: UserInfo, namespace: string): SubjectRules {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  let incomplete = false;
  for (const a of authorizers) {
    const held: SubjectRules = a.rulesFor ? a.rulesFor(user, namespace) : { rules: [], incomplete: true, evaluationError: `${a.name} authorizer does not support user rule resolution` };
    rules.push(...held.rules);
    incomplete ||= held.incomplete;
    if (held.evaluationError) errors.push(held.evaluationError);
  }
  return { rules, incomplete, ...evaluationError(errors) };
}

/** The answer of the server's authorizers (an access review's status). */
export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  /** What went wrong in authorizers that threw (kube's evaluationError); they count as no opinion. */
  evaluationError?: string;
}

/**
 * The server's authorizers as one (kube's union authorizer): asked in order, the first `allow` or `deny` decides with
 * its reason (earlier failures are not reported, as kube's); when none does, the decision is `no-opinion` with every reason given, one a line. Requests, access
 * reviews and admission's CEL `authorizer` all ask this.
 */
export class AuthorizationChain {
  constructor(private readonly authorizers: () => readonly Authorizer[]) {}

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult> {
    const reasons: string[] = [];
    const failures: string[] = [];
    for (const a of this.authorizers()) {
      let answer: AuthorizerAnswer;
      try {
        answer = await a.authorize(attrs);
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
        continue;
      }
      const reason = answer.reason ?? '';
      // kube's union authorizer: a decision comes with its own authorizer's error only
      if (answer.decision !== 'no-opinion') {
        const decided = { decision: answer.decision, reason };
        return answer.evaluationError ? { ...decided, evaluationError: answer.evaluationError } : decided;
      }
      if (answer.evaluationError) failures.push(answer.evaluationError);
      if (reason) reasons.push(reason);
    }
    return { decision: 'no-opinion', reason: reasons.join('\n'), ...evaluationError(failures) };
  }
}

/** kube's aggregate of errors (utilerrors.NewAggregate): distinct messages, one as is, several as `[a, b]`. */
function evaluationError(failures: string[]): { evaluationError?: string } {
  const distinct = [...new Set(failures)];
  if (distinct.length === 0) return {};
  return { evaluationError: distinct.length === 1 ? distinct[0]! : `[${distinct.join(', ')}]` };
}
