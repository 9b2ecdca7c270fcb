/**
 * The validation ValidatingAdmissionPolicies and admission webhooks share (pkg/apis/admissionregistration/validation):
 * rules with operations, and match conditions; with kube's field paths and texts. Label selectors are in
 * label-selector-validation.ts.
 */
import { appendCauses, fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isQualifiedName } from '../../lib/k8s/names.js';
import { goDuplicate, goInternal, goInvalid, goInvalidRaw, goNotSupported, goStringSlice } from './go-field-values.js';
import type { WebhookRule } from './webhook-configuration-types.js';

/** A compile problem of one expression (kube's cel.Error): Invalid is the expression's fault, Internal kapi's. */
export interface ExpressionProblem {
  type: 'Invalid' | 'Internal';
  detail: string;
}

/**
 * Compiles one match-condition expression (CEL that must be a bool; admission/ provides it, core/ has no admission
 * CEL environment): undefined when it compiles, else kube's error type and detail.
 */
export type MatchConditionCompiler = (expression: string) => ExpressionProblem | undefined;

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const MAX_MATCH_CONDITIONS = 64;

const arr = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The cause of an expression that does not compile. */
export function expressionCause(field: string, expression: string, p: ExpressionProblem): StatusCause {
  return p.type === 'Invalid' ? goInvalid(field, expression, p.detail) : goInternal(field, p.detail);
}

/** The `resources` patterns of a rule: no empty entries, no pattern shadowed by a wildcard. */
function validateResources(resources: string[], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!resources.length) causes.push(fieldErrors.required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      causes.push(fieldErrors.required(`${path}[${i}]`));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) causes.push(goInvalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) causes.push(goInvalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) causes.push(goInvalidRaw(path, goStringSlice('string', resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) causes.push(goInvalidRaw(path, goStringSlice('string', resources), "if '*' is present, must not specify other resources without subresources"));
  return causes;
}

/** kube's validateRuleWithOperations: operations, API groups and versions, resources and scope. */
export function validateRuleWithOperations(rule: WebhookRule, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const operations = arr(rule.operations);
  if (!operations.length) causes.push(fieldErrors.required(`${path}.operations`));
  if (operations.length > 1 && operations.includes('*')) {
    causes.push(goInvalidRaw(`${path}.operations`, goStringSlice('admissionregistration.OperationType', operations), "if '*' is present, must not specify other operations"));
  }
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) causes.push(goNotSupported(`${path}.operations[${i}]`, str(op), OPERATIONS));
  });
  const groups = arr(rule.apiGroups);
  if (!groups.length) causes.push(fieldErrors.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) causes.push(goInvalidRaw(`${path}.apiGroups`, goStringSlice('string', groups), "if '*' is present, must not specify other API groups"));
  const versions = arr(rule.apiVersions);
  if (!versions.length) causes.push(fieldErrors.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) causes.push(goInvalidRaw(`${path}.apiVersions`, goStringSlice('string', versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') causes.push(fieldErrors.required(`${path}.apiVersions[${i}]`));
  });
  appendCauses(causes, validateResources(arr(rule.resources), `${path}.resources`));
  // both kinds default a missing scope to '*' before validation
  if (rule.scope != null && !SCOPES.includes(rule.scope)) causes.push(goNotSupported(`${path}.scope`, str(rule.scope), SCOPES));
  return causes;
}

/** At most 64 match conditions, uniquely named, each compiling to a bool. */
export function validateMatchConditions(conditions: { name?: string; expression?: string }[] | undefined, compile: MatchConditionCompiler, path: string): StatusCause[] {
  const list = arr(conditions);
  const causes: StatusCause[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) {
    causes.push({ reason: 'FieldValueTooMany', message: `Too many: ${list.length}: must have at most ${MAX_MATCH_CONDITIONS} items`, field: path });
  }
  const names = new Set<string>();
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const expression = str(c.expression).trim();
    if (!expression) causes.push(fieldErrors.required(`${p}.expression`));
    else {
      const problem = compile(expression);
      if (problem) causes.push(expressionCause(`${p}.expression`, expression, problem));
    }
    const name = str(c.name);
    if (!name) causes.push(fieldErrors.required(`${p}.name`));
    else for (const msg of isQualifiedName(name)) causes.push(goInvalid(`${p}.name`, name, msg));
    if (name) {
      if (names.has(name)) causes.push(goDuplicate(`${p}.name`, name));
      names.add(name);
    }
  });
  return causes;
}
