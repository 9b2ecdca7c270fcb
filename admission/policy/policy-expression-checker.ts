/**
 * Compiles a ValidatingAdmissionPolicy's expressions when the policy is created or updated, as kube-apiserver's
 * validation does: variables in order (later expressions see earlier variables; without variables there is no
 * `variables`), validations and audit annotations with `authorizer`, message expressions without; match
 * conditions in an environment without variables. Plugs into the resource's validation in core/.
 */
import type { PolicyExpressionChecker } from '../../builtin/admissionregistration/validating-admission-policy-validation.js';
import { CompositionEnv, RETURN_TYPES } from './cel/composition-env.js';

export const policyExpressionChecker: PolicyExpressionChecker = {
  forPolicy({ hasParams, hasVariables }) {
    const composition = new CompositionEnv(hasParams, hasVariables);
    let matchConditions: CompositionEnv | undefined;
    return {
      variable: (name, expression) => composition.addVariable(name, expression).error,
      validation: (expression) => composition.compile(expression, RETURN_TYPES.validation, true).error,
      messageExpression: (expression) => composition.compile(expression, RETURN_TYPES.messageExpression, false).error,
      auditAnnotation: (expression) => composition.compile(expression, RETURN_TYPES.auditAnnotation, true).error,
      matchCondition: (expression) => (matchConditions ??= new CompositionEnv(hasParams, false)).compile(expression, RETURN_TYPES.matchCondition, true).error,
    };
  },
};
