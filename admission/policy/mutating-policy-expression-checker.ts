/**
 * Compiles a MutatingAdmissionPolicy's expressions when the policy is created or updated, as kube-apiserver's
 * validation does, in the policy's composition environment as the mutation engine compiles them (`variables` is
 * declared even when the policy has none): variables in order, match conditions as for validating policies, and
 * each mutation's expression with the `Object` and `JSONPatch` types, checked to evaluate to what its patch type
 * applies (`Object`, `list(JSONPatch)`). Object types are dynamic here, as in kube: type checking against the matched
 * kinds' schemas only warns (mutating-policy-type-warnings.ts).
 */
import type { MutatingPolicyExpressionChecker } from '../../builtin/admissionregistration/mutating-admission-policy-validation.js';
import { CompositionEnv, RETURN_TYPES } from './cel/composition-env.js';
import { compilePatchExpression } from './mutation/compiled-mutation.js';

export const mutatingPolicyExpressionChecker: MutatingPolicyExpressionChecker = {
  forPolicy({ hasParams }) {
    const composition = new CompositionEnv(hasParams);
    let matchConditions: CompositionEnv | undefined;
    return {
      variable: (name, expression) => composition.addVariable(name, expression).error,
      matchCondition: (expression) => (matchConditions ??= new CompositionEnv(hasParams, false)).compile(expression, RETURN_TYPES.matchCondition, true).error,
      mutation: (patchType, expression) => compilePatchExpression(patchType, expression, composition).error,
    };
  },
};
