import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../builtin/admissionregistration/validating-admission-policy-types.js';
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  type PolicyExpressionChecker,
} from '../../builtin/admissionregistration/validating-admission-policy-validation.js';
import type { StaticManifestPlugin } from '../manifests/static-manifest-plugin.js';
import { bindingRestriction, bindingsReferToLoadedPolicies, policyRestriction } from '../manifests/policy-manifest-rules.js';
import type { PolicySource } from './policy-source.js';

const empty: ReadonlyMap<string, KubeObject> = new Map();

/**
 * The `ValidatingAdmissionPolicy` plugin's static manifests (apiserver.config.k8s.io/v1
 * ValidatingAdmissionPolicyConfiguration): policies and bindings, put in force in `source`.
 */
export function validatingAdmissionPolicyManifests(
  policyResource: ResourceType,
  bindingResource: ResourceType,
  checker: PolicyExpressionChecker,
  source: PolicySource,
): StaticManifestPlugin {
  const policyKind = policyResource.names.kind;
  const bindingKind = bindingResource.names.kind;
  return {
    name: 'ValidatingAdmissionPolicy',
    configurationKinds: { 'apiserver.config.k8s.io/v1': ['ValidatingAdmissionPolicyConfiguration'] },
    kinds: [
      { rt: policyResource, validate: (obj) => validateValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy, undefined, checker), restriction: policyRestriction },
      { rt: bindingResource, validate: (obj) => validateValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding), restriction: bindingRestriction },
    ],
    checkSet: bindingsReferToLoadedPolicies(policyKind, bindingKind),
    apply: (objects) => source.replace(objects.get(policyKind) ?? empty, objects.get(bindingKind) ?? empty),
  };
}
