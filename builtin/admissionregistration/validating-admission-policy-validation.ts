/**
 * kube-apiserver's validation of ValidatingAdmissionPolicies and their bindings
 * (pkg/apis/admissionregistration/validation), with kube's field paths and texts. Expressions are compiled by a
 * {@link PolicyExpressionChecker} the admission layer supplies, in kube's order, so that variables are visible to
 * the expressions after them.
 */
import { isDeepStrictEqual } from 'node:util';
import { appendCauses, fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isQualifiedName } from '../../lib/k8s/names.js';
import {
  arr,
  str,
  validateBindingCommon,
  validateFailurePolicy,
  validateMatchConstraints,
  validateParamKind,
  validateVariables,
} from './admission-policy-validation.js';
import { goDuplicate, goInvalid, goInvalidRaw, goNotSupported, goStringSlice } from './go-field-values.js';
import { expressionCause, validateMatchConditions, type ExpressionProblem } from './match-rules-validation.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, ValidatingAdmissionPolicySpec } from './validating-admission-policy-types.js';

/** Compiles the expressions of one policy, in order; variables compiled first are visible to later expressions. */
export interface PolicyExpressionCompiler {
  variable(name: string, expression: string): ExpressionProblem | undefined;
  validation(expression: string): ExpressionProblem | undefined;
  messageExpression(expression: string): ExpressionProblem | undefined;
  auditAnnotation(valueExpression: string): ExpressionProblem | undefined;
  matchCondition(expression: string): ExpressionProblem | undefined;
}

export interface PolicyExpressionChecker {
  forPolicy(opts: { hasParams: boolean; hasVariables: boolean }): PolicyExpressionCompiler;
}

const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;

const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

function validatePolicySpec(name: string, spec: ValidatingAdmissionPolicySpec, checker: PolicyExpressionChecker, ignoreMatchConditions: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const path = 'spec';
  const variables = arr(spec.variables);
  const compiler = checker.forPolicy({ hasParams: spec.paramKind !== undefined, hasVariables: variables.length > 0 });
  appendCauses(causes, validateFailurePolicy(spec.failurePolicy, `${path}.failurePolicy`));
  if (spec.paramKind !== undefined) appendCauses(causes, validateParamKind(spec.paramKind, `${path}.paramKind`));
  appendCauses(causes, validateMatchConstraints(spec.matchConstraints, `${path}.matchConstraints`));
  if (!ignoreMatchConditions) appendCauses(causes, validateMatchConditions(arr(spec.matchConditions), (e) => compiler.matchCondition(e), `${path}.matchConditions`));
  appendCauses(causes, validateVariables(variables, (n, e) => compiler.variable(n, e), `${path}.variables`));
  const validations = arr(spec.validations);
  const auditAnnotations = arr(spec.auditAnnotations);
  if (!validations.length && !auditAnnotations.length) {
    causes.push(fieldErrors.required(`${path}.validations`, 'validations or auditAnnotations must contain at least one item'));
    causes.push(fieldErrors.required(`${path}.auditAnnotations`, 'validations or auditAnnotations must contain at least one item'));
    return causes;
  }
  validations.forEach((v, i) => {
    const p = `${path}.validations[${i}]`;
    const expression = str(v.expression);
    if (expression.trim() === '') causes.push(fieldErrors.required(`${p}.expression`, 'expression is not specified'));
    else {
      const problem = compiler.validation(expression);
      if (problem) causes.push(expressionCause(`${p}.expression`, expression, problem));
    }
    const messageExpression = str(v.messageExpression);
    if (messageExpression.length > 0 && messageExpression.trim() === '') causes.push(goInvalid(`${p}.messageExpression`, messageExpression, 'must be non-empty if specified'));
    else if (messageExpression.trim() !== '') {
      const problem = compiler.messageExpression(messageExpression);
      if (problem) causes.push(expressionCause(`${p}.messageExpression`, messageExpression, problem));
    }
    const message = str(v.message);
    if (message.length > 0 && message.trim() === '') causes.push(goInvalid(`${p}.message`, message, 'message must be non-empty if specified'));
    else if (hasNewlines(message.trim())) causes.push(goInvalid(`${p}.message`, message, 'message must not contain line breaks'));
    if (v.reason !== undefined && !VALIDATION_REASONS.includes(v.reason)) causes.push(goNotSupported(`${p}.reason`, str(v.reason), VALIDATION_REASONS));
  });
  if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS) {
    causes.push(goInvalidRaw(`${path}.auditAnnotations`, `[]admissionregistration.AuditAnnotation{...}`, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  auditAnnotations.forEach((a, i) => {
    const p = `${path}.auditAnnotations[${i}]`;
    const key = str(a.key);
    if (name) for (const msg of isQualifiedName(`${name}/${key}`)) causes.push(goInvalid(`${p}.key`, `${name}/${key}`, msg));
    else causes.push(goInvalid(`${p}.key`, key, 'requires metadata.name be non-empty'));
    const valueExpression = str(a.valueExpression);
    const trimmed = valueExpression.trim();
    if (!trimmed) causes.push(fieldErrors.required(`${p}.valueExpression`, 'valueExpression is not specified'));
    else if (Buffer.byteLength(trimmed) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH) {
      causes.push(fieldErrors.required(`${p}.valueExpression`, `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`));
    } else {
      const problem = compiler.auditAnnotation(trimmed);
      if (problem) causes.push(expressionCause(`${p}.valueExpression`, valueExpression, problem));
    }
    if (keys.has(key)) causes.push(goDuplicate(`${p}.key`, key));
    keys.add(key);
  });
  return causes;
}

function validatePolicyStatus(policy: ValidatingAdmissionPolicy): StatusCause[] {
  const causes: StatusCause[] = [];
  arr(policy.status?.typeChecking?.expressionWarnings).forEach((w, i) => {
    const p = `status.typeChecking.expressionWarnings[${i}]`;
    if (!str(w.warning)) causes.push(fieldErrors.required(`${p}.warning`));
    if (!str(w.fieldRef).trim()) causes.push(fieldErrors.required(`${p}.fieldRef`));
  });
  return causes;
}

/** ValidateValidatingAdmissionPolicy(Update): spec and status; unchanged match conditions are not compiled again. */
export function validateValidatingAdmissionPolicy(policy: ValidatingAdmissionPolicy, old: ValidatingAdmissionPolicy | undefined, checker: PolicyExpressionChecker): StatusCause[] {
  const spec = policy.spec ?? {};
  const ignoreMatchConditions =
    !!old && isDeepStrictEqual(spec.paramKind, old.spec?.paramKind) && isDeepStrictEqual(spec.matchConditions, old.spec?.matchConditions);
  return [...validatePolicySpec(policy.metadata?.name ?? '', spec, checker, ignoreMatchConditions), ...validatePolicyStatus(policy)];
}

function validateValidationActions(actions: string[], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!VALIDATION_ACTIONS.includes(a)) causes.push(goNotSupported(`${path}[${i}]`, str(a), VALIDATION_ACTIONS));
    if (seen.has(a)) causes.push(goDuplicate(`${path}[${i}]`, str(a)));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    causes.push(
      goInvalidRaw(
        path,
        goStringSlice('admissionregistration.ValidationAction', actions),
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  }
  if (!seen.size) causes.push(fieldErrors.required(path, 'at least one validation action is required'));
  return causes;
}

/** ValidateValidatingAdmissionPolicyBinding (kube reports matchResources under its misspelt path `spec.matchResouces`). */
export function validateValidatingAdmissionPolicyBinding(binding: ValidatingAdmissionPolicyBinding): StatusCause[] {
  const spec = binding.spec ?? {};
  return [...validateBindingCommon(spec, 'spec.matchResouces'), ...validateValidationActions(arr(spec.validationActions), 'spec.validationActions')];
}
