import type { DependencyContainer } from 'tsyringe';
import { resolveLater } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import {
  mutatingAdmissionPolicyBindingResource,
  mutatingAdmissionPolicyResource,
} from '../../builtin/admissionregistration/mutating-admission-policy-resource.js';
import {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
} from '../../builtin/admissionregistration/mutating-admission-policy-validation.js';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from '../../builtin/admissionregistration/mutating-admission-policy-types.js';
import type { StaticManifestPlugin } from '../manifests/static-manifest-plugin.js';
import { objectsFollower } from '../objects-follower.js';
import { compileMutatingPolicy, type CompiledMutatingPolicy } from './compiled-mutating-policy.js';
import { MutatingAdmissionPolicyPlugin } from './mutating-admission-policy-plugin.js';
import { mutatingPolicyExpressionChecker } from './mutating-policy-expression-checker.js';
import { mutatingPolicyTypeWarnings } from './mutating-policy-type-warnings.js';
import { followParamsInUse, ParamInformers } from './param-informers.js';
import { policyManifests } from './policy-manifests.js';
import { PolicySource } from './policy-source.js';

/**
 * Registers the MutatingAdmissionPolicy(Binding) resources (a policy's mutations type-checked against the kinds it
 * matches, as warnings), the informers that follow them from storage and the `MutatingAdmissionPolicy` admission
 * plugin; adds the plugin's static manifests to `manifests`.
 */
export function registerMutatingAdmissionPolicy(c: DependencyContainer, manifests: StaticManifestPlugin[]): void {
  const registry = resolveLater(c, Tokens.Registry);
  const policyResource = mutatingAdmissionPolicyResource(mutatingPolicyExpressionChecker, (policy) => mutatingPolicyTypeWarnings(policy, registry()));
  const bindingResource = mutatingAdmissionPolicyBindingResource();
  c.register(Tokens.BuiltinResource, { useValue: policyResource });
  c.register(Tokens.BuiltinResource, { useValue: bindingResource });

  const informers = resolveLater(c, Tokens.Informers);
  const source = new PolicySource<CompiledMutatingPolicy>(compileMutatingPolicy);
  const staticSource = new PolicySource<CompiledMutatingPolicy>(compileMutatingPolicy);
  manifests.push(
    policyManifests(
      {
        plugin: 'MutatingAdmissionPolicy',
        configurationKind: 'MutatingAdmissionPolicyConfiguration',
        policy: { rt: policyResource, validate: (obj) => validateMutatingAdmissionPolicy(obj as MutatingAdmissionPolicy, undefined, mutatingPolicyExpressionChecker) },
        binding: { rt: bindingResource, validate: (obj) => validateMutatingAdmissionPolicyBinding(obj as MutatingAdmissionPolicyBinding) },
      },
      staticSource,
    ),
  );
  const params = new ParamInformers(informers, registry);
  followParamsInUse(source, params);

  c.register(Tokens.Controller, { useValue: objectsFollower(informers, policyResource, source.policiesChanged) });
  c.register(Tokens.Controller, { useValue: objectsFollower(informers, bindingResource, source.bindingsChanged) });
  c.register(Tokens.AdmissionPlugin, {
    useValue: new MutatingAdmissionPolicyPlugin(source, params, resolveLater(c, Tokens.NamespaceLookup), registry, resolveLater(c, Tokens.Authorization), staticSource),
  });
}
