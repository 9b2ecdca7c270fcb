import type { AuditBackend, AuditPolicy } from '../contracts/audit.js';
import { defineModule, type Module } from '../contracts/module.js';
import { Tokens } from '../contracts/tokens.js';
import { checkAuditPolicy, loadAuditPolicyFile } from './audit-policy.js';

export interface AuditModuleOptions {
  /** An audit.k8s.io/v1 Policy, or the path of a YAML or JSON file holding one (kube's --audit-policy-file). */
  policy: AuditPolicy | string;
  /** Where events go; more can be registered under `Tokens.AuditBackend` by other modules (e.g. auditLog). */
  backends?: AuditBackend[];
}

/**
 * Audits requests as kube-apiserver does: the policy is checked when the module is created (an invalid one throws
 * AuditPolicyError with kube's message), and each request's events go to every backend.
 */
export function auditModule(options: AuditModuleOptions): Module {
  const policy = typeof options.policy === 'string' ? loadAuditPolicyFile(options.policy) : checkAuditPolicy(options.policy);
  return defineModule('audit', (c) => {
    c.register(Tokens.AuditPolicy, { useValue: policy });
    for (const backend of options.backends ?? []) c.register(Tokens.AuditBackend, { useValue: backend });
  });
}
