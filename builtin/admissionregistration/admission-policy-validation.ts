/**
 * The validation Validating- and MutatingAdmissionPolicies and their bindings share
 * (pkg/apis/admissionregistration/validation): matchResources, paramKind, variables, and a binding's policyName and
 * paramRef, with kube's field paths and texts.
 */
import { appendCauses, fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from '../../lib/k8s/names.js';
import { goDuplicate, goInvalid, goNotSupported } from './go-field-values.js';
import { validateLabelSelector } from './label-selector-validation.js';
import { expressionCause, validateRuleWithOperations, type ExpressionProblem } from './match-rules-validation.js';
import type { MatchResources, NamedExpressionSpec, NamedRuleWithOperations, ParamKind, ParamRef } from './validating-admission-policy-types.js';

export const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

export const arr = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

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

/** validateMatchResources: match policy and selectors required (the defaults set them), every rule valid. */
export function validateMatchResources(m: MatchResources | undefined, path: string): StatusCause[] {
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

/** A policy's failurePolicy: required (defaulted to Fail), Fail or Ignore. */
export function validateFailurePolicy(policy: string | undefined, path: string): StatusCause[] {
  if (policy === undefined) return [fieldErrors.required(path)];
  return FAILURE_POLICIES.includes(policy) ? [] : [goNotSupported(path, str(policy), FAILURE_POLICIES)];
}

/**
 * Operations a mutating policy or binding may match: not DELETE. kube reports each other one under the rules' path
 * without an index, with the sorted supported values.
 */
export function validateMutatingOperations(m: MatchResources, path: string): StatusCause[] {
  const supported = ['*', 'CONNECT', 'CREATE', 'UPDATE'];
  return arr(m.resourceRules)
    .flatMap((r) => arr(r?.operations))
    .filter((op) => !supported.includes(op))
    .map((op) => goNotSupported(`${path}.resourceRules.operations`, str(op), supported));
}

/**
 * A policy's matchConstraints: required, valid, with at least one resource rule (it gives expressions their types);
 * a mutating policy's rules match no DELETE.
 */
export function validateMatchConstraints(m: MatchResources | undefined, path: string, mutating = false): StatusCause[] {
  if (m === undefined) return [fieldErrors.required(path)];
  const causes = validateMatchResources(m, path);
  if (!arr(m.resourceRules).length) causes.push(fieldErrors.required(`${path}.resourceRules`));
  if (mutating) appendCauses(causes, validateMutatingOperations(m, path));
  return causes;
}

/** validateParamKind: a group/version and a kind that lower-cased is a DNS-1035 label. */
export function validateParamKind(pk: ParamKind, path: string): StatusCause[] {
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

/**
 * validateVariable for each variable, in order: a CEL identifier for a name, an expression that compiles (`compile`
 * makes it visible to what compiles after it).
 */
export function validateVariables(
  variables: NamedExpressionSpec[],
  compile: (name: string, expression: string) => ExpressionProblem | undefined,
  path: string,
): StatusCause[] {
  const causes: StatusCause[] = [];
  variables.forEach((v, i) => {
    const p = `${path}[${i}]`;
    const vname = str(v.name);
    if (vname.trim() === '') causes.push(fieldErrors.required(`${p}.name`, 'name is not specified'));
    else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(vname) || CEL_RESERVED.has(vname)) causes.push(goInvalid(`${p}.name`, vname, 'name is not a valid CEL identifier'));
    const expression = str(v.expression);
    if (expression.trim() === '') causes.push(fieldErrors.required(`${p}.expression`, 'expression is not specified'));
    else {
      const problem = compile(vname, expression);
      if (problem) causes.push(expressionCause(`${p}.expression`, expression, problem));
    }
  });
  return causes;
}

/** validateParamRef: name xor selector, and a parameterNotFoundAction. */
export function validateParamRef(pr: ParamRef | undefined, path: string): StatusCause[] {
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

/**
 * A binding's policyName, paramRef and matchResources, the last under `matchResourcesPath` (kube reports a validating
 * binding's under its misspelt `spec.matchResouces`).
 */
export function validateBindingCommon(spec: { policyName?: string; paramRef?: ParamRef; matchResources?: MatchResources }, matchResourcesPath: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const policyName = str(spec.policyName);
  if (!policyName) causes.push(fieldErrors.required('spec.policyName'));
  else for (const msg of isDNS1123Subdomain(policyName)) causes.push(goInvalid('spec.policyName', policyName, msg));
  appendCauses(causes, validateParamRef(spec.paramRef, 'spec.paramRef'));
  appendCauses(causes, validateMatchResources(spec.matchResources, matchResourcesPath));
  return causes;
}
