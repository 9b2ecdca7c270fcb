import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import type { CompiledPolicyBase } from './compiled-policy.js';
import type { PolicyHook, PolicySource } from './policy-source.js';

const POLICY_RESOURCES = new Set(['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

/** kube's isPolicyResource: no policy checks or mutates the writes of policies and their bindings, validating or mutating. */
export function isPolicyResource(attrs: AdmissionAttributes): boolean {
  const { group, resource } = attrs.resource;
  return group === 'admissionregistration.k8s.io' && POLICY_RESOURCES.has(resource);
}

/**
 * The policies a request meets (kube's composite policy source): those loaded from static manifest files first, on
 * every request (they guard the admission configuration stored through the API too); then those stored through the
 * API, except on requests on policies and bindings themselves.
 */
export function requestHooks<P extends CompiledPolicyBase>(attrs: AdmissionAttributes, stored: PolicySource<P>, fromFiles?: PolicySource<P>): readonly PolicyHook<P>[] {
  const apiHooks = isPolicyResource(attrs) ? [] : stored.hooks;
  const staticHooks = fromFiles?.hooks ?? [];
  return staticHooks.length ? [...staticHooks, ...apiHooks] : apiHooks;
}
