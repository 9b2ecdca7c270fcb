/** kube's defaults for MutatingAdmissionPolicies and their bindings (SetDefaults_MutatingAdmissionPolicySpec, MatchResources). */
import { defaultMatchResources } from './validating-admission-policy-defaults.js';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from './mutating-admission-policy-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** failurePolicy Fail, reinvocationPolicy Never (also when empty: kube's field is a plain string) and the matchConstraints defaults. */
export function defaultMutatingAdmissionPolicy(p: MutatingAdmissionPolicy): void {
  if (!isObject(p.spec)) return;
  p.spec.failurePolicy ??= 'Fail';
  if (!p.spec.reinvocationPolicy) p.spec.reinvocationPolicy = 'Never';
  if (isObject(p.spec.matchConstraints)) defaultMatchResources(p.spec.matchConstraints);
}

/** The matchResources defaults, when the binding narrows with matchResources. */
export function defaultMutatingAdmissionPolicyBinding(b: MutatingAdmissionPolicyBinding): void {
  if (isObject(b.spec) && isObject(b.spec.matchResources)) defaultMatchResources(b.spec.matchResources);
}
