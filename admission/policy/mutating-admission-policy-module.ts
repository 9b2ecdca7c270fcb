import type { DependencyContainer } from 'tsyringe';
import { Tokens } from '../../core/contracts/tokens.js';
import {
  mutatingAdmissionPolicyBindingResource,
  mutatingAdmissionPolicyResource,
} from '../../builtin/admissionregistration/mutating-admission-policy-resource.js';
import { mutatingPolicyExpressionChecker } from './mutating-policy-expression-checker.js';

/** Registers the MutatingAdmissionPolicy(Binding) resources (served and validated; the mutating plugin reads them). */
export function registerMutatingAdmissionPolicy(c: DependencyContainer): void {
  c.register(Tokens.BuiltinResource, { useValue: mutatingAdmissionPolicyResource(mutatingPolicyExpressionChecker) });
  c.register(Tokens.BuiltinResource, { useValue: mutatingAdmissionPolicyBindingResource() });
}
