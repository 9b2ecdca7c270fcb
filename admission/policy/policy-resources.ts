import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';

const POLICY_RESOURCES = new Set(['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

/** kube's isPolicyResource: no policy checks or mutates the writes of policies and their bindings, validating or mutating. */
export function isPolicyResource(attrs: AdmissionAttributes): boolean {
  const { group, resource } = attrs.resource;
  return group === 'admissionregistration.k8s.io' && POLICY_RESOURCES.has(resource);
}
