import { defineModule, type Module } from '../core/contracts/module.js';
import { Tokens } from '../core/contracts/tokens.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { CreatedBy } from './created-by.js';
import { registerMutatingWebhooks, registerValidatingWebhooks } from './webhook/admission-webhooks-module.js';
import { registerMutatingAdmissionPolicy } from './policy/mutating-admission-policy-module.js';
import { registerValidatingAdmissionPolicy } from './policy/validating-admission-policy-module.js';

/**
 * kapi's own admission plugins, in kube-apiserver's default order: NamespaceLifecycle, CreatedBy (off unless enabled
 * by name), MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook — with the
 * admissionregistration.k8s.io resources the last three are configured by, and the MutatingAdmissionPolicy kinds.
 */
export function builtinAdmission(): Module {
  return defineModule('builtin-admission', (c) => {
    c.register(Tokens.AdmissionPlugin, { useClass: NamespaceLifecycle });
    c.register(Tokens.AdmissionPlugin, { useClass: CreatedBy });
    registerMutatingWebhooks(c);
    registerMutatingAdmissionPolicy(c);
    registerValidatingAdmissionPolicy(c);
    registerValidatingWebhooks(c);
  }, { needs: ['namespaces'] });
}
