import type { AuthorizationChain } from '../../../core/contracts/authorizer.js';
import type { CelAuthorizationDecision, CelAuthorizationRequest, CelAuthorizer } from './authorizer-library.js';
import { selectorRequirements } from '../../../lib/k8s/authorization-selectors.js';

/** What an evaluation is told of a check whose answer is still being asked (that evaluation is not kept). */
const pending: CelAuthorizationDecision = { decision: 'no-opinion', reason: '', error: 'authorization check pending' };

/**
 * Rounds of asking before the checks still unanswered are answered as errors. The CEL cost limits bound the checks
 * one evaluation can make (each costs as much as kube charges), and every round answers all those it made.
 */
const maxRounds = 32;
const gaveUp: CelAuthorizationDecision = { decision: 'no-opinion', reason: '', error: 'too many authorization checks in one evaluation' };

/**
 * The CEL `authorizer` of one admission request, answered by the server's authorizers. CEL evaluates synchronously
 * and authorizers answer asynchronously, so `settled` runs an evaluation, asks the authorizers the checks it made
 * that had no answer yet, and runs it again with the answers until a run makes no unanswered check: evaluation is
 * pure, so that run is the one a synchronous authorizer would have given. Evaluations that make no check cost
 * nothing more. Answers are kept for the request (its policies, bindings and params ask the same checks).
 */
export class AuthorizationChecks implements CelAuthorizer {
  private readonly answers = new Map<string, CelAuthorizationDecision>();
  private readonly unanswered = new Map<string, CelAuthorizationRequest>();

  constructor(private readonly authorization: () => AuthorizationChain) {}

  authorize(req: CelAuthorizationRequest): CelAuthorizationDecision {
    const key = JSON.stringify(req);
    const known = this.answers.get(key);
    if (known) return known;
    this.unanswered.set(key, req);
    return pending;
  }

  /** The value of `evaluate` once every check it makes is answered: at once when it made none not answered before. */
  settled<T>(evaluate: () => T): T | Promise<T> {
    const result = evaluate();
    return this.unanswered.size === 0 ? result : this.settle(evaluate);
  }

  private async settle<T>(evaluate: () => T): Promise<T> {
    for (let round = 1; ; round++) {
      await this.askUnanswered(round >= maxRounds);
      const result = evaluate();
      if (this.unanswered.size === 0) return result;
    }
  }

  private async askUnanswered(giveUp: boolean): Promise<void> {
    const asked = [...this.unanswered];
    this.unanswered.clear();
    const answers = await Promise.all(asked.map(([, req]) => (giveUp ? gaveUp : this.ask(req))));
    asked.forEach(([key], i) => this.answers.set(key, answers[i]!));
  }

  private async ask(req: CelAuthorizationRequest): Promise<CelAuthorizationDecision> {
    const { decision, reason, evaluationError } = await this.authorization().authorize({
      user: req.user,
      verb: req.verb,
      isResourceRequest: req.resourceRequest,
      path: req.path ?? '',
      apiGroup: req.apiGroup,
      apiVersion: req.apiVersion,
      namespace: req.namespace,
      resource: req.resource,
      subresource: req.subresource,
      name: req.name,
      ...selectorRequirements(req.fieldSelector, req.labelSelector),
    });
    return { decision, reason, ...(evaluationError !== undefined ? { error: evaluationError } : {}) };
  }
}
