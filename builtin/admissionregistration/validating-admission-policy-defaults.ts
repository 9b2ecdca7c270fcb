/** kube's defaults for admissionregistration.k8s.io/v1 policies and bindings (pkg/apis/admissionregistration/v1). */
import type { MatchResources, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './validating-admission-policy-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** matchPolicy Equivalent, selectors `{}` (everything), every rule's scope `*`. */
export function defaultMatchResources(m: MatchResources): void {
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const rules of [m.resourceRules, m.excludeResourceRules]) {
    if (!Array.isArray(rules)) continue;
    for (const r of rules) if (isObject(r)) r.scope ??= '*';
  }
}

/** failurePolicy Fail and the matchConstraints defaults. */
export function defaultValidatingAdmissionPolicy(p: ValidatingAdmissionPolicy): void {
  if (!isObject(p.spec)) return;
  p.spec.failurePolicy ??= 'Fail';
  if (isObject(p.spec.matchConstraints)) defaultMatchResources(p.spec.matchConstraints);
}

/** The matchResources defaults, when the binding narrows with matchResources. */
export function defaultValidatingAdmissionPolicyBinding(b: ValidatingAdmissionPolicyBinding): void {
  if (isObject(b.spec) && isObject(b.spec.matchResources)) defaultMatchResources(b.spec.matchResources);
}
