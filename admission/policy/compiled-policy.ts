/**
 * A ValidatingAdmissionPolicy compiled once per generation (kube's compilePolicy): its match constraints as
 * selectors and rules, its variables, validations (with message expressions), audit annotations and match
 * conditions as planned CEL programs. Requests then only evaluate.
 */
import type { MatchResources, ValidatingAdmissionPolicy } from '../../builtin/admissionregistration/validating-admission-policy-types.js';
import { MatchConditionsEvaluator } from '../matching/match-conditions.js';
import { admissionSelector } from '../matching/selectors.js';
import type { MatchPolicy, RuleWithOperations } from '../matching/admission-rules.js';
import type { LabelSelector } from '../../lib/k8s/labels/label-selector.js';
import type { CompiledExpression } from './cel/compiled-expression.js';
import { CompositionEnv, RETURN_TYPES } from './cel/composition-env.js';
import type { NamedExpression } from './cel/admission-activation.js';

export interface CompiledRule extends RuleWithOperations {
  resourceNames?: string[];
}

/** MatchResources ready to match: selectors parsed once (an unparsable selector is a configuration error). */
export interface CompiledMatchResources {
  namespaceSelector: LabelSelector;
  objectSelector: LabelSelector;
  resourceRules: CompiledRule[];
  excludeResourceRules: CompiledRule[];
  matchPolicy: MatchPolicy;
}

export interface CompiledValidation {
  expression: string;
  message?: string;
  reason?: string;
  compiled: CompiledExpression;
  messageExpression?: CompiledExpression;
}

/** What every compiled admission policy has, validating or mutating (what the policy source and matcher read). */
export interface CompiledPolicyBase {
  name: string;
  failurePolicy: 'Fail' | 'Ignore';
  /** apiVersion and kind of the params, when the policy takes params. */
  paramKind?: { apiVersion: string; kind: string };
  matchConstraints?: CompiledMatchResources;
  /** A problem that makes every matching request fail per failurePolicy (kube's ConfigurationError). */
  configurationError?: string;
  variables: NamedExpression[];
  matchConditions?: MatchConditionsEvaluator;
  /** Whether an expression reads `namespaceObject` (only then is the request's namespace read). */
  usesNamespaceObject: boolean;
  /** Whether an expression asks the `authorizer` (only then may evaluation wait for the authorizers). */
  usesAuthorizer: boolean;
}

/** Whether any of the expressions asks the `authorizer` (directly or through `authorizer.requestResource`). */
export function asksAuthorizer(expressions: readonly { references: ReadonlySet<string> }[]): boolean {
  return expressions.some((e) => e.references.has('authorizer') || e.references.has('authorizer.requestResource'));
}

export interface CompiledPolicy extends CompiledPolicyBase {
  validations: CompiledValidation[];
  auditAnnotations: { key: string; compiled: CompiledExpression }[];
}

/** A list field of a policy's spec, or none. */
export const arr = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);

/** Sets a compiled policy's match constraints; a selector that does not parse is its configuration error instead. */
export function withMatchConstraints<T extends CompiledPolicyBase>(compiled: T, constraints: MatchResources | undefined): T {
  if (!constraints) return compiled;
  try {
    compiled.matchConstraints = compileMatchResources(constraints);
  } catch (e) {
    compiled.configurationError = (e as Error).message;
  }
  return compiled;
}

export function compileMatchResources(m: MatchResources): CompiledMatchResources {
  return {
    namespaceSelector: admissionSelector(m.namespaceSelector),
    objectSelector: admissionSelector(m.objectSelector),
    resourceRules: arr(m.resourceRules),
    excludeResourceRules: arr(m.excludeResourceRules),
    matchPolicy: m.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
  };
}

export function compilePolicy(policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const spec = policy.spec ?? {};
  const hasParams = !!spec.paramKind;
  const composition = new CompositionEnv(hasParams);
  for (const v of arr(spec.variables)) composition.addVariable(v.name, v.expression);
  const conditions = arr(spec.matchConditions);
  const conditionExpressions = conditions.map((c) => composition.compile(c.expression, RETURN_TYPES.matchCondition, true));
  const compiled: CompiledPolicy = {
    name: policy.metadata?.name ?? '',
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    ...(spec.paramKind ? { paramKind: { apiVersion: spec.paramKind.apiVersion ?? '', kind: spec.paramKind.kind ?? '' } } : {}),
    variables: composition.variables,
    validations: arr(spec.validations).map((v) => ({
      expression: v.expression,
      ...(v.message !== undefined ? { message: v.message } : {}),
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
      compiled: composition.compile(v.expression, RETURN_TYPES.validation, true),
      ...(v.messageExpression ? { messageExpression: composition.compile(v.messageExpression, RETURN_TYPES.messageExpression, false) } : {}),
    })),
    auditAnnotations: arr(spec.auditAnnotations).map((a) => ({ key: a.key, compiled: composition.compile(a.valueExpression, RETURN_TYPES.auditAnnotation, true) })),
    ...(conditions.length
      ? { matchConditions: new MatchConditionsEvaluator(conditions, conditionExpressions) }
      : {}),
    usesNamespaceObject: false,
    usesAuthorizer: false,
  };
  const expressions = [
    ...compiled.variables.map((v) => v.compiled),
    ...compiled.validations.flatMap((v) => (v.messageExpression ? [v.compiled, v.messageExpression] : [v.compiled])),
    ...compiled.auditAnnotations.map((a) => a.compiled),
    ...conditionExpressions,
  ];
  compiled.usesNamespaceObject = expressions.some((e) => e.references.has('namespaceObject'));
  compiled.usesAuthorizer = asksAuthorizer(expressions);
  return withMatchConstraints(compiled, spec.matchConstraints);
}
