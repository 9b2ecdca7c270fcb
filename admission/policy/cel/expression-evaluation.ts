/**
 * Evaluating a list of compiled admission expressions against one activation under a shared cost budget
 * (Kubernetes' filter.ForInput): each expression is limited to 1,000,000 cost units; a compile error or a
 * runtime error becomes that expression's error with kube's text; running out of the budget aborts the list.
 */
import { CelError, type Val } from '../../../lib/cel/values.js';
import type { AdmissionActivation } from './admission-activation.js';
import { PER_CALL_LIMIT, type CompiledExpression } from './compiled-expression.js';


/** celconfig.RuntimeCELCostBudget (a policy binding's validations; also match conditions). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

export interface EvaluationResult {
  /** The result when the expression evaluated without error. */
  value?: Val;
  /** kube's cel.Error detail. */
  error?: string;
}

export type EvaluationOutcome = { results: EvaluationResult[]; remainingBudget: number } | { budgetError: string };

export function evaluateExpressions(expressions: readonly CompiledExpression[], activation: AdmissionActivation, budget: number): EvaluationOutcome {
  const results: EvaluationResult[] = [];
  let remaining = budget;
  for (const e of expressions) {
    if (e.error) {
      results.push({ error: `compilation error: ${e.error.detail}` });
      continue;
    }
    const res = e.program!.eval(activation, { costLimit: PER_CALL_LIMIT });
    const cost = res.cost + activation.takeVariablesCost();
    if (cost > remaining) return { budgetError: OUT_OF_BUDGET };
    remaining -= cost;
    if (res.costLimitExceeded) results.push({ error: `expression '${e.expression}' resulted in error: operation cancelled: actual cost limit exceeded` });
    else if (res.value instanceof CelError) results.push({ error: `expression '${e.expression}' resulted in error: ${res.value.message}` });
    else results.push({ value: res.value });
  }
  return { results, remainingBudget: remaining };
}
