import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { StaticManifestKind, StaticManifestPlugin } from '../manifests/static-manifest-plugin.js';
import { bindingRestriction, bindingsReferToLoadedPolicies, policyRestriction } from '../manifests/policy-manifest-rules.js';
import type { CompiledPolicyBase } from './compiled-policy.js';
import type { PolicySource } from './policy-source.js';

/** A policy plugin's kinds as its manifests directory takes them: the served kind and its create validation. */
type PolicyManifestKind = Omit<StaticManifestKind, 'restriction'>;

export interface PolicyManifestsOptions {
  /** The admission plugin's name (`ValidatingAdmissionPolicy`, `MutatingAdmissionPolicy`). */
  plugin: string;
  /** Its apiserver.config.k8s.io/v1 configuration kind (kube's `ValidatingAdmissionPolicyConfiguration`, …). */
  configurationKind: string;
  policy: PolicyManifestKind;
  binding: PolicyManifestKind;
}

const empty: ReadonlyMap<string, KubeObject> = new Map();

/**
 * A policy plugin's static manifests (KEP-5793), validating or mutating alike: its policies and their bindings under
 * kube's manifest rules for policies (no params, bindings of the directory's own policies), put in force together in
 * `source`.
 */
export function policyManifests<P extends CompiledPolicyBase>(
  { plugin, configurationKind, policy, binding }: PolicyManifestsOptions,
  source: PolicySource<P>,
): StaticManifestPlugin {
  const policyKind = policy.rt.names.kind;
  const bindingKind = binding.rt.names.kind;
  return {
    name: plugin,
    configurationKinds: { 'apiserver.config.k8s.io/v1': [configurationKind] },
    kinds: [
      { ...policy, restriction: policyRestriction },
      { ...binding, restriction: bindingRestriction },
    ],
    checkSet: bindingsReferToLoadedPolicies(policyKind, bindingKind),
    apply: (objects) => source.replace(objects.get(policyKind) ?? empty, objects.get(bindingKind) ?? empty),
  };
}
