import type { AdmissionRequest } from '../admission-request.js';
import { AdmissionActivation } from '../policy/cel/admission-activation.js';
import { admissionEnv } from '../policy/cel/admission-cel-env.js';
import { admissionInputs } from '../policy/cel/admission-inputs.js';
import type { CelAuthorizer } from '../policy/cel/authorizer-library.js';
import { compileExpression, type CompiledExpression } from '../policy/cel/compiled-expression.js';
import { evaluateExpressions, RUNTIME_CEL_COST_BUDGET } from '../policy/cel/expression-evaluation.js';
import { T } from '../../lib/cel/types.js';

/** admissionregistration.k8s.io/v1 MatchCondition. */
export interface MatchCondition {
  name: string;
  expression: string;
}

/** Outcome of a request's match conditions (kube's matchconditions.Matcher). */
export type MatchConditionsResult =
  | { matches: true }
  | { matches: false; failedCondition: string }
  /** No condition was false but one could not be evaluated: the caller applies its failurePolicy. */
  | { matches: 'error'; message: string };

export interface CompiledMatchConditions {
  /** `authorizer`: what the conditions' `authorizer` checks ask. */
  evaluate(request: AdmissionRequest, authorizer: CelAuthorizer): MatchConditionsResult;
}

/** Go's utilerrors.Aggregate text: one message as is, several (distinct) as `[a, b]`. */
export function aggregateMessage(messages: readonly string[]): string {
  const distinct = [...new Set(messages)];
  return distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`;
}

/**
 * Match conditions compiled in some environment, evaluated against an activation: a false condition stops at once
 * (that condition's name); otherwise any error makes the result an error (the policy's or webhook's failurePolicy
 * decides); else they match.
 */
export class MatchConditionsEvaluator {
  constructor(
    private readonly conditions: readonly MatchCondition[],
    private readonly compiled: readonly CompiledExpression[],
  ) {}

  evaluate(activation: AdmissionActivation): MatchConditionsResult {
    const outcome = evaluateExpressions(this.compiled, activation, RUNTIME_CEL_COST_BUDGET);
    if ('budgetError' in outcome) return { matches: 'error', message: outcome.budgetError };
    const errors: string[] = [];
    for (let i = 0; i < outcome.results.length; i++) {
      const r = outcome.results[i];
      if (r.error !== undefined) errors.push(r.error);
      if (r.value === false) return { matches: false, failedCondition: this.conditions[i].name };
    }
    if (errors.length) return { matches: 'error', message: aggregateMessage(errors) };
    return { matches: true };
  }
}

/**
 * Compiles match conditions (CEL with `object`, `oldObject`, `request`, `authorizer`; each must be bool). A condition
 * that does not compile is an error at evaluation (configuration validation refuses it earlier with kube's text).
 */
export function compileMatchConditions(conditions: readonly MatchCondition[]): CompiledMatchConditions {
  const env = admissionEnv({ hasParams: false, hasAuthorizer: true });
  const evaluator = new MatchConditionsEvaluator(
    conditions,
    conditions.map((c) => compileExpression(env, c.expression, [T.bool])),
  );
  return {
    evaluate: (request, authorizer) => (conditions.length ? evaluator.evaluate(new AdmissionActivation(admissionInputs(request, authorizer))) : { matches: true }),
  };
}
