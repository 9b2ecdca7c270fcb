/**
 * kube-apiserver's validation of MutatingAdmissionPolicies and their bindings
 * (pkg/apis/admissionregistration/validation), with kube's field paths and texts. Expressions are compiled by a
 * {@link MutatingPolicyExpressionChecker} the admission layer supplies, variables first so that later expressions
 * see them.
 */
import { isDeepStrictEqual } from 'node:util';
import { appendCauses, fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import {
  arr,
  str,
  validateBindingCommon,
  validateFailurePolicy,
  validateMatchConstraints,
  validateMutatingOperations,
  validateParamKind,
  validateVariables,
} from './admission-policy-validation.js';
import { goInvalid, goNotSupported } from './go-field-values.js';
import { expressionCause, validateMatchConditions, type ExpressionProblem } from './match-rules-validation.js';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding, Mutation } from './mutating-admission-policy-types.js';

/** Compiles the expressions of one mutating policy, in order; variables compiled first are visible to later expressions. */
export interface MutatingPolicyExpressionCompiler {
  variable(name: string, expression: string): ExpressionProblem | undefined;
  matchCondition(expression: string): ExpressionProblem | undefined;
  /** A mutation's expression, which must evaluate to what its patch type applies (`Object`, `list(JSONPatch)`). */
  mutation(patchType: PatchType, expression: string): ExpressionProblem | undefined;
}

export interface MutatingPolicyExpressionChecker {
  /** kube compiles a mutating policy in a composition environment: `variables` is declared even when it has none. */
  forPolicy(opts: { hasParams: boolean }): MutatingPolicyExpressionCompiler;
}

export type PatchType = 'ApplyConfiguration' | 'JSONPatch';

// kube lists supported values sorted
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

type PatchBody = 'applyConfiguration' | 'jsonPatch';
const BODIES: Record<PatchType, [own: PatchBody, other: PatchBody]> = {
  ApplyConfiguration: ['applyConfiguration', 'jsonPatch'],
  JSONPatch: ['jsonPatch', 'applyConfiguration'],
};

/**
 * validateMutation: a patch type, its own body with an expression that compiles (trimmed) to what the patch type
 * applies, and not the other body.
 */
function validateMutation(m: Mutation, compiler: MutatingPolicyExpressionCompiler, path: string): StatusCause[] {
  const patchType = str(m.patchType);
  if (!patchType) return [fieldErrors.required(`${path}.patchType`)];
  // own keys only: a patch type such as "constructor" is as unsupported as any other
  if (!Object.hasOwn(BODIES, patchType)) return [goNotSupported(`${path}.patchType`, patchType, PATCH_TYPES)];
  const type = patchType as PatchType;
  const [own, other] = BODIES[type];
  const causes: StatusCause[] = [];
  const patch = m[own];
  if (patch === undefined) causes.push(fieldErrors.required(`${path}.${own}`, `must be specified when patchType is ${patchType}`));
  else {
    const expression = str(patch.expression).trim();
    if (!expression) causes.push(fieldErrors.required(`${path}.${own}.expression`));
    else {
      const problem = compiler.mutation(type, expression);
      if (problem) causes.push(expressionCause(`${path}.${own}.expression`, expression, problem));
    }
  }
  if (m[other] !== undefined) causes.push(goInvalid(`${path}.${other}`, `{${other}}`, `must not be specified when patchType is ${patchType}`));
  return causes;
}

/** ValidateMutatingAdmissionPolicy(Update): unchanged match conditions (with an unchanged paramKind) are not compiled again. */
export function validateMutatingAdmissionPolicy(policy: MutatingAdmissionPolicy, old: MutatingAdmissionPolicy | undefined, checker: MutatingPolicyExpressionChecker): StatusCause[] {
  const spec = policy.spec ?? {};
  const path = 'spec';
  const variables = arr(spec.variables);
  const compiler = checker.forPolicy({ hasParams: spec.paramKind !== undefined });
  const causes = validateFailurePolicy(spec.failurePolicy, `${path}.failurePolicy`);
  if (spec.paramKind !== undefined) appendCauses(causes, validateParamKind(spec.paramKind, `${path}.paramKind`));
  appendCauses(causes, validateMatchConstraints(spec.matchConstraints, `${path}.matchConstraints`, true));
  const ignoreMatchConditions =
    !!old && isDeepStrictEqual(spec.paramKind, old.spec?.paramKind) && isDeepStrictEqual(spec.matchConditions, old.spec?.matchConditions);
  if (!ignoreMatchConditions) appendCauses(causes, validateMatchConditions(arr(spec.matchConditions), (e) => compiler.matchCondition(e), `${path}.matchConditions`));
  appendCauses(causes, validateVariables(variables, (n, e) => compiler.variable(n, e), `${path}.variables`));
  const mutations = arr(spec.mutations);
  if (!mutations.length) causes.push(fieldErrors.required(`${path}.mutations`, 'mutations must contain at least one item'));
  mutations.forEach((m, i) => appendCauses(causes, validateMutation(m ?? {}, compiler, `${path}.mutations[${i}]`)));
  const reinvocation = str(spec.reinvocationPolicy);
  if (!reinvocation) causes.push(fieldErrors.required(`${path}.reinvocationPolicy`));
  else if (!REINVOCATION_POLICIES.includes(reinvocation)) causes.push(goNotSupported(`${path}.reinvocationPolicy`, reinvocation, REINVOCATION_POLICIES));
  return causes;
}

/** ValidateMutatingAdmissionPolicyBinding: policyName, paramRef and matchResources, whose rules match no DELETE. */
export function validateMutatingAdmissionPolicyBinding(binding: MutatingAdmissionPolicyBinding): StatusCause[] {
  const spec = binding.spec ?? {};
  const causes = validateBindingCommon(spec, 'spec.matchResources');
  if (spec.matchResources) appendCauses(causes, validateMutatingOperations(spec.matchResources, 'spec.matchResources'));
  return causes;
}
