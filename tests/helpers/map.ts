// MutatingAdmissionPolicy test helpers: the resources' paths in a served version, policy and binding bodies.
import { widgetRules } from './vap.js';

export const MAP_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;

export const mapPath = (version: string) => `/apis/admissionregistration.k8s.io/${version}/mutatingadmissionpolicies`;
export const mapbPath = (version: string) => `/apis/admissionregistration.k8s.io/${version}/mutatingadmissionpolicybindings`;

/** A policy on widget creates and updates that sets a label with an apply configuration. */
export function mutatingPolicy(name: string, spec: Record<string, unknown> = {}, version = 'v1') {
  return {
    apiVersion: `admissionregistration.k8s.io/${version}`,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: { resourceRules: widgetRules },
      reinvocationPolicy: 'Never',
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}' } }],
      ...spec,
    },
  };
}

export function mutatingBinding(name: string, policyName: string, spec: Record<string, unknown> = {}, version = 'v1') {
  return {
    apiVersion: `admissionregistration.k8s.io/${version}`,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, ...spec },
  };
}
