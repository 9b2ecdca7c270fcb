import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';

/** The kinds whose writes no webhook sees (kube's IsExemptAdmissionConfigurationResource): admission's own configuration. */
const exemptKinds = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/** Whether a request configures admission itself, so that a broken webhook can always be fixed or removed. */
export function isExemptFromWebhooks(attrs: AdmissionAttributes): boolean {
  return attrs.kind.group === 'admissionregistration.k8s.io' && exemptKinds.has(attrs.kind.kind);
}
