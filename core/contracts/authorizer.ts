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
      let answer: { decision: Decision; reason?: string };
      try {
        answer = await a.authorize(attrs);
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
        continue;
      }
      const reason = answer.reason ?? '';
      if (answer.decision !== 'no-opinion') return { decision: answer.decision, reason };
      if (reason) reasons.push(reason);
    }
    return { decision: 'no-opinion', reason: reasons.join('\n'), ...evaluationError(failures) };
  }
}

/** kube's aggregate of errors: one as is, several as `[a, b]`. */
function evaluationError(failures: string[]): { evaluationError?: string } {
  if (failures.length === 0) return {};
  return { evaluationError: failures.length === 1 ? failures[0]! : `[${failures.join(', ')}]` };
}
