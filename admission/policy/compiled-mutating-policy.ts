/**
 * A MutatingAdmissionPolicy compiled once per generation (kube's mutating compilePolicy): its match constraints,
 * variables and match conditions as for validating policies, and its mutations in order, each compiled in the
 * policy's composition environment. A mutation that cannot compile (or whose patch type is unknown) fails when it
 * runs, per the policy's failurePolicy.
 */
import type { MutatingAdmissionPolicy } from '../../builtin/admissionregistration/mutating-admission-policy-types.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { MatchConditionsEvaluator } from '../matching/match-conditions.js';
import { CompositionEnv, RETURN_TYPES } from './cel/composition-env.js';
import { arr, asksAuthorizer, withMatchConstraints, type CompiledPolicyBase } from './compiled-policy.js';
import { compileMutation, type CompiledMutation } from './mutation/compiled-mutation.js';

export interface CompiledMutatingPolicy extends CompiledPolicyBase {
  /** One per `spec.mutations[i]`; undefined where the mutation has no usable patch type or expression. */
  mutations: (CompiledMutation | undefined)[];
  /** reinvocationPolicy IfNeeded: the policy runs again when a later mutation changed the object. */
  reinvokeIfNeeded: boolean;
}


export function compileMutatingPolicy(obj: KubeObject): CompiledMutatingPolicy {
  const policy = obj as MutatingAdmissionPolicy;
  const spec = policy.spec ?? {};
  const composition = new CompositionEnv(!!spec.paramKind);
  for (const v of arr(spec.variables)) composition.addVariable(v.name, v.expression);
  const conditions = arr(spec.matchConditions);
  const conditionExpressions = conditions.map((c) => composition.compile(c.expression, RETURN_TYPES.matchCondition, true));
  const mutations = arr(spec.mutations).map((m) => compileMutation(m, composition));
  const expressions = [...composition.variables.map((v) => v.compiled), ...conditionExpressions, ...mutations.flatMap((m) => (m ? [m.compiled] : []))];
  const compiled: CompiledMutatingPolicy = {
    name: policy.metadata?.name ?? '',
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    ...(spec.paramKind ? { paramKind: { apiVersion: spec.paramKind.apiVersion ?? '', kind: spec.paramKind.kind ?? '' } } : {}),
    variables: composition.variables,
    ...(conditions.length ? { matchConditions: new MatchConditionsEvaluator(conditions, conditionExpressions) } : {}),
    usesNamespaceObject: expressions.some((e) => e.references.has('namespaceObject')),
    usesAuthorizer: asksAuthorizer(expressions),
    mutations,
    reinvokeIfNeeded: spec.reinvocationPolicy === 'IfNeeded',
  };
  return withMatchConstraints(compiled, spec.matchConstraints);
}
