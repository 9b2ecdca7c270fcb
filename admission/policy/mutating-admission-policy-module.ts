import type { DependencyContainer } from 'tsyringe';
import { Tokens } from '../../core/contracts/tokens.js';
import {
  mutatingAdmissionPolicyBindingResource,
  mutatingAdmissionPolicyResource,
} from '../../builtin/admissionregistration/mutating-admission-policy-resource.js';
import { objectsFollower } from '../objects-follower.js';
import { compileMutatingPolicy, type CompiledMutatingPolicy } from './compiled-mutating-policy.js';
import { MutatingAdmissionPolicyPlugin } from './mutating-admission-policy-plugin.js';
import { mutatingPolicyExpressionChecker } from './mutating-policy-expression-checker.js';
import { mutatingPolicyTypeWarnings } from './mutating-policy-type-warnings.js';
import { followParamsInUse, ParamInformers } from './param-informers.js';
import { PolicySource } from './policy-source.js';

/**
 * Registers the MutatingAdmissionPolicy(Binding) resources (a policy's mutations type-checked against the kinds it
 * matches, as warnings), the informers that follow them from storage and the `MutatingAdmissionPolicy` admission plugin.
 */
export function registerMutatingAdmissionPolicy(c: DependencyContainer): void {
  const registry = () => c.resolve(Tokens.Registry);
  const policyResource = mutatingAdmissionPolicyResource(mutatingPolicyExpressionChecker, (policy) => mutatingPolicyTypeWarnings(policy, registry()));
  const bindingResource = mutatingAdmissionPolicyBindingResource();
  c.register(Tokens.BuiltinResource, { useValue: policyResource });
  c.register(Tokens.BuiltinResource, { useValue: bindingResource });

  const informers = () => c.resolve(Tokens.Informers);
  const source = new PolicySource<CompiledMutatingPolicy>(compileMutatingPolicy);
  const params = new ParamInformers(informers, registry);
  followParamsInUse(source, params);

  c.register(Tokens.Controller, { useValue: objectsFollower(informers, policyResource, source.policiesChanged) });
  c.register(Tokens.Controller, { useValue: objectsFollower(informers, bindingResource, source.bindingsChanged) });
  c.register(Tokens.AdmissionPlugin, { useValue: new MutatingAdmissionPolicyPlugin(source, params, () => c.resolve(Tokens.NamespaceLookup), registry) });
}
