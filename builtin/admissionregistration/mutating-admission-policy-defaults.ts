/** kube's defaults for MutatingAdmissionPolicies and their bindings (SetDefaults_MutatingAdmissionPolicySpec, MatchResources). */
import { defaultMatchResources } from './validating-admission-policy-defaults.js';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from './mutating-admission-policy-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** failurePolicy Fail and the matchConstraints defaults; kube leaves reinvocationPolicy to the user (it is required). */
export function defaultMutatingAdmissionPolicy(p: MutatingAdmissionPolicy): void {
  if (!isObject(p.spec)) return;
  p.spec.failurePolicy ??= 'Fail';
  if (isObject(p.spec.matchConstraints)) defaultMatchResources(p.spec.matchConstraints);
}

/** The matchResources defaults, when the binding narrows with matchResources. */
export function defaultMutatingAdmissionPolicyBinding(b: MutatingAdmissionPolicyBinding): void {
  if (isObject(b.spec) && isObject(b.spec.matchResources)) defaultMatchResources(b.spec.matchResources);
}
