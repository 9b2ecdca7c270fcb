/**
 * Compiles a MutatingAdmissionPolicy's expressions when the policy is created or updated: variables and match
 * conditions as for validating policies; a mutation's expression is only parsed here (the mutation engine
 * type-checks `Object{...}` and `JSONPatch{...}` against the matched kinds), so a syntax error is the 422 kube gives.
 */
import type { MutatingPolicyExpressionChecker } from '../../builtin/admissionregistration/mutating-admission-policy-validation.js';
import { formatIssues } from '../../lib/cel/env.js';
import { parse } from '../../lib/cel/parser.js';
import { CompositionEnv, RETURN_TYPES } from './cel/composition-env.js';

export const mutatingPolicyExpressionChecker: MutatingPolicyExpressionChecker = {
  forPolicy({ hasParams, hasVariables }) {
    const composition = new CompositionEnv(hasParams, hasVariables);
    let matchConditions: CompositionEnv | undefined;
    return {
      variable: (name, expression) => composition.addVariable(name, expression).error,
      matchCondition: (expression) => (matchConditions ??= new CompositionEnv(hasParams, false)).compile(expression, RETURN_TYPES.matchCondition, true).error,
      mutation: (expression) => {
        const parsed = parse(expression);
        return parsed.expr ? undefined : { type: 'Invalid', detail: `compilation failed: ${formatIssues(parsed.source, parsed.issues)}` };
      },
    };
  },
};
