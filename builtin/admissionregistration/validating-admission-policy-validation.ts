/**
 * kube-apiserver's validation of ValidatingAdmissionPolicies and their bindings
 * (pkg/apis/admissionregistration/validation), with kube's field paths and texts. Expressions are compiled by a
 * {@link PolicyExpressionChecker} the admission layer supplies, in kube's order, so that variables are visible to
 * the expressions after them.
 */
import { isDeepStrictEqual } from 'node:util';
import { appendCauses, fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName } from '../../lib/k8s/names.js';
import { goDuplicate, goInvalid, goInvalidRaw, goNotSupported, goStringSlice } from './go-field-values.js';
import { validateLabelSelector } from './label-selector-validation.js';
import { expressionCause, validateMatchConditions, validateRuleWithOperations, type ExpressionProblem } from './match-rules-validation.js';
import type {
  MatchResources,
  NamedRuleWithOperations,
  ParamKind,
  ParamRef,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicySpec,
} from './validating-admission-policy-types.js';

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

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

const arr = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

// ---- rules ----

function validateNamedRuleWithOperations(rule: NamedRuleWithOperations, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  arr(rule.resourceNames).forEach((name, i) => {
    for (const msg of isValidPathSegmentName(name)) causes.push(goInvalid(`${path}.resourceNames[${i}]`, name, msg));
    if (seen.has(name)) causes.push(goDuplicate(`${path}.resourceNames[${i}]`, name));
    seen.add(name);
  });
  return [...causes, ...validateRuleWithOperations(rule, path)];
}

function validateMatchResources(m: MatchResources | undefined, path: string): StatusCause[] {
  if (!m) return [];
  const causes: StatusCause[] = [];
  if (m.matchPolicy === undefined) causes.push(fieldErrors.required(`${path}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(m.matchPolicy)) causes.push(goNotSupported(`${path}.matchPolicy`, str(m.matchPolicy), MATCH_POLICIES));
  if (m.namespaceSelector === undefined) causes.push(fieldErrors.required(`${path}.namespaceSelector`));
  else appendCauses(causes, validateLabelSelector(m.namespaceSelector, `${path}.namespaceSelector`));
  if (m.objectSelector === undefined) causes.push(fieldErrors.required(`${path}.objectSelector`));
  else appendCauses(causes, validateLabelSelector(m.objectSelector, `${path}.objectSelector`));
  arr(m.resourceRules).forEach((r, i) => appendCauses(causes, validateNamedRuleWithOperations(r, `${path}.resourceRules[${i}]`)));
  arr(m.excludeResourceRules).forEach((r, i) => appendCauses(causes, validateNamedRuleWithOperations(r, `${path}.excludeResourceRules[${i}]`)));
  return causes;
}

// ---- policy ----

function validateParamKind(pk: ParamKind, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const apiVersion = str(pk.apiVersion);
  if (!apiVersion) causes.push(fieldErrors.required(`${path}.apiVersion`));
  else {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1) causes.push(goInvalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else if (apiVersion !== '/') {
      const [group, version] = slashes === 0 ? ['', apiVersion] : apiVersion.split('/');
      if (group) {
        const errs = isDNS1123Subdomain(group);
        if (errs.length) causes.push(goInvalid(`${path}.apiVersion`, group, errs.join(',')));
      }
      if (!version) causes.push(goInvalid(`${path}.apiVersion`, apiVersion, 'version must be specified'));
      else {
        const errs = isDNS1035Label(version);
        if (errs.length) causes.push(goInvalid(`${path}.apiVersion`, version, errs.join(',')));
      }
    }
  }
  const kind = str(pk.kind);
  if (!kind) causes.push(fieldErrors.required(`${path}.kind`));
  else {
    const errs = isDNS1035Label(kind.toLowerCase());
    if (errs.length) causes.push(goInvalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
  }
  return causes;
}

function validatePolicySpec(name: string, spec: ValidatingAdmissionPolicySpec, checker: PolicyExpressionChecker, ignoreMatchConditions: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const path = 'spec';
  const variables = arr(spec.variables);
  const compiler = checker.forPolicy({ hasParams: spec.paramKind !== undefined, hasVariables: variables.length > 0 });
  if (spec.failurePolicy === undefined) causes.push(fieldErrors.required(`${path}.failurePolicy`));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy)) causes.push(goNotSupported(`${path}.failurePolicy`, str(spec.failurePolicy), FAILURE_POLICIES));
  if (spec.paramKind !== undefined) appendCauses(causes, validateParamKind(spec.paramKind, `${path}.paramKind`));
  if (spec.matchConstraints === undefined) causes.push(fieldErrors.required(`${path}.matchConstraints`));
  else {
    appendCauses(causes, validateMatchResources(spec.matchConstraints, `${path}.matchConstraints`));
    // at least one resource rule gives the expressions type information
    if (!arr(spec.matchConstraints.resourceRules).length) causes.push(fieldErrors.required(`${path}.matchConstraints.resourceRules`));
  }
  if (!ignoreMatchConditions) appendCauses(causes, validateMatchConditions(arr(spec.matchConditions), (e) => compiler.matchCondition(e), `${path}.matchConditions`));
  variables.forEach((v, i) => {
    const p = `${path}.variables[${i}]`;
    const vname = str(v.name);
    if (vname.trim() === '') causes.push(fieldErrors.required(`${p}.name`, 'name is not specified'));
    else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(vname) || CEL_RESERVED.has(vname)) causes.push(goInvalid(`${p}.name`, vname, 'name is not a valid CEL identifier'));
    const expression = str(v.expression);
    if (expression.trim() === '') causes.push(fieldErrors.required(`${p}.expression`, 'expression is not specified'));
    else {
      const problem = compiler.variable(vname, expression);
      if (problem) causes.push(expressionCause(`${p}.expression`, expression, problem));
    }
  });
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

function validateParamRef(pr: ParamRef | undefined, path: string): StatusCause[] {
  if (!pr) return [];
  const causes: StatusCause[] = [];
  const name = str(pr.name);
  if (name) {
    for (const msg of isValidPathSegmentName(name)) causes.push(goInvalid(`${path}.name`, name, msg));
    if (pr.selector !== undefined) causes.push(fieldErrors.forbidden(`${path}.name`, 'name and selector are mutually exclusive'));
  }
  if (pr.selector !== undefined) {
    appendCauses(causes, validateLabelSelector(pr.selector, `${path}.selector`));
    if (name) causes.push(fieldErrors.forbidden(`${path}.selector`, 'name and selector are mutually exclusive'));
  }
  if (!name && pr.selector === undefined) causes.push(fieldErrors.required(path, 'one of name or selector must be specified'));
  const action = str(pr.parameterNotFoundAction);
  if (!action) causes.push(fieldErrors.required(`${path}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow') causes.push(goNotSupported(`${path}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return causes;
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
  const causes: StatusCause[] = [];
  const policyName = str(spec.policyName);
  if (!policyName) causes.push(fieldErrors.required('spec.policyName'));
  else for (const msg of isDNS1123Subdomain(policyName)) causes.push(goInvalid('spec.policyName', policyName, msg));
  appendCauses(causes, validateParamRef(spec.paramRef, 'spec.paramRef'));
  appendCauses(causes, validateMatchResources(spec.matchResources, 'spec.matchResouces'));
  appendCauses(causes, validateValidationActions(arr(spec.validationActions), 'spec.validationActions'));
  return causes;
}
