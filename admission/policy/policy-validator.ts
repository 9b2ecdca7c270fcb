/**
 * Evaluates one compiled policy for one binding and param (kube's validating.validator): match conditions, then the
 * validations (under one cost budget, message expressions from what is left), then the audit annotations (under
 * a fresh budget). Runtime errors become decisions per the policy's failurePolicy, with kube's texts.
 */
import { typeNameOf } from '../../lib/cel/values.js';
import { AdmissionActivation, type AdmissionInputs, type BindingInputs } from './cel/admission-activation.js';
import { evaluateExpressions, RUNTIME_CEL_COST_BUDGET, OUT_OF_BUDGET } from './cel/expression-evaluation.js';
import { PER_CALL_LIMIT } from './cel/compiled-expression.js';
import type { CompiledPolicy, CompiledValidation } from './compiled-policy.js';

export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  /** The Status reason of a denial ('' for errors: kube answers Invalid then). */
  reason: string;
}

export interface PolicyAuditAnnotation {
  key: string;
  action: 'publish' | 'error' | 'exclude';
  value?: string;
  error?: string;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: PolicyAuditAnnotation[];
}

/** celconfig.MaxEvaluatedMessageExpressionSizeBytes */
const MAX_MESSAGE_BYTES = 5 * 1024;

function errorDecision(policy: CompiledPolicy, message: string): PolicyDecision {
  return { action: policy.failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message, reason: '' };
}

/** messageExpression's result if usable (a non-empty single line of at most 5 KiB), else the message, else the expression. */
function denialMessage(v: CompiledValidation, activation: AdmissionActivation, budget: { remaining: number }): string | PolicyDecision {
  const me = v.messageExpression;
  if (me?.program) {
    const res = me.program.eval(activation, { costLimit: PER_CALL_LIMIT });
    const cost = res.cost + activation.takeVariablesCost();
    if (cost > budget.remaining) return { action: 'deny', evaluation: 'error', message: `failed messageExpression: ${OUT_OF_BUDGET}`, reason: '' };
    budget.remaining -= cost;
    if (typeof res.value === 'string') {
      const m = res.value.trim();
      if (m && Buffer.byteLength(m) <= MAX_MESSAGE_BYTES && !m.includes('\n')) return m;
    }
  }
  const message = (v.message ?? '').trim();
  return message || `failed expression: ${v.expression.trim()}`;
}

export function validatePolicy(policy: CompiledPolicy, inputs: AdmissionInputs, binding?: BindingInputs): ValidateResult {
  const activation = new AdmissionActivation(inputs, policy.variables, binding);
  if (policy.matchConditions) {
    const m = policy.matchConditions.evaluate(activation);
    if (m.matches === 'error') return { decisions: [errorDecision(policy, m.message)], auditAnnotations: [] };
    if (!m.matches) return { decisions: [], auditAnnotations: [] };
  }

  const outcome = evaluateExpressions(
    policy.validations.map((v) => v.compiled),
    activation,
    RUNTIME_CEL_COST_BUDGET,
  );
  if ('budgetError' in outcome) return { decisions: [errorDecision(policy, outcome.budgetError)], auditAnnotations: [] };
  const budget = { remaining: outcome.remainingBudget };
  const decisions = outcome.results.map((r, i): PolicyDecision => {
    if (r.error !== undefined) return errorDecision(policy, r.error);
    if (r.value === true) return { action: 'admit', evaluation: 'admit', message: '', reason: '' };
    const v = policy.validations[i];
    const message = denialMessage(v, activation, budget);
    if (typeof message !== 'string') return policy.failurePolicy === 'Ignore' ? { ...message, action: 'admit' } : message;
    return { action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' };
  });

  if (!policy.auditAnnotations.length) return { decisions, auditAnnotations: [] };
  const audit = evaluateExpressions(
    policy.auditAnnotations.map((a) => a.compiled),
    activation,
    RUNTIME_CEL_COST_BUDGET,
  );
  if ('budgetError' in audit) return { decisions: [errorDecision(policy, audit.budgetError)], auditAnnotations: [] };
  const onError = policy.failurePolicy === 'Ignore' ? 'exclude' : 'error';
  const auditAnnotations = audit.results.map((r, i): PolicyAuditAnnotation => {
    const { key, compiled } = policy.auditAnnotations[i];
    if (r.error !== undefined) return { key, action: onError, error: r.error };
    if (r.value === null) return { key, action: 'exclude' };
    if (typeof r.value === 'string') {
      const value = r.value.trim();
      return value ? { key, action: 'publish', value } : { key, action: 'exclude' };
    }
    return {
      key,
      action: 'error',
      error: `valueExpression '${compiled.expression}' resulted in unsupported return type: ${typeNameOf(r.value!)}. Return type must be either string or null.`,
    };
  });
  return { decisions, auditAnnotations };
}
