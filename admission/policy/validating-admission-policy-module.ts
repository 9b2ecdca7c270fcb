import type { DependencyContainer } from 'tsyringe';
import { resolveLater } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { Controller } from '../../core/contracts/controller.js';
import { objectsFollower } from '../objects-follower.js';
import {
  validatingAdmissionPolicyBindingResource,
  validatingAdmissionPolicyResource,
} from '../../builtin/admissionregistration/validating-admission-policy-resource.js';
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
} from '../../builtin/admissionregistration/validating-admission-policy-validation.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../builtin/admissionregistration/validating-admission-policy-types.js';
import { followParamsInUse, ParamInformers } from './param-informers.js';
import { policyExpressionChecker } from './policy-expression-checker.js';
import { compilePolicy } from './compiled-policy.js';
import { PolicySource } from './policy-source.js';
import { PolicyStatusController } from './policy-status-controller.js';
import { ValidatingAdmissionPolicyPlugin } from './validating-admission-policy-plugin.js';
import { policyManifests } from './policy-manifests.js';
import type { StaticManifestPlugin } from '../manifests/static-manifest-plugin.js';

/**
 * Registers ValidatingAdmissionPolicy(Binding) resources, the informers that follow them from storage, the
 * type-checking status controller and the `ValidatingAdmissionPolicy` admission plugin; adds the plugin's static
 * manifests to `manifests`.
 */
export function registerValidatingAdmissionPolicy(c: DependencyContainer, manifests: StaticManifestPlugin[]): void {
  const policyResource = validatingAdmissionPolicyResource(policyExpressionChecker);
  const bindingResource = validatingAdmissionPolicyBindingResource();
  c.register(Tokens.BuiltinResource, { useValue: policyResource });
  c.register(Tokens.BuiltinResource, { useValue: bindingResource });

  const objects = resolveLater(c, Tokens.Objects);
  const registry = resolveLater(c, Tokens.Registry);
  const source = new PolicySource(compilePolicy);
  const staticSource = new PolicySource(compilePolicy);
  manifests.push(
    policyManifests(
      {
        plugin: 'ValidatingAdmissionPolicy',
        configurationKind: 'ValidatingAdmissionPolicyConfiguration',
        policy: { rt: policyResource, validate: (obj) => validateValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy, undefined, policyExpressionChecker) },
        binding: { rt: bindingResource, validate: (obj) => validateValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding) },
      },
      staticSource,
    ),
  );
  const informers = resolveLater(c, Tokens.Informers);
  const params = new ParamInformers(informers, registry);
  followParamsInUse(source, params);

  c.register(Tokens.Controller, { useValue: objectsFollower(informers, policyResource, source.policiesChanged) });
  c.register(Tokens.Controller, { useValue: objectsFollower(informers, bindingResource, source.bindingsChanged) });
  c.register(Tokens.Controller, { useValue: new PolicyStatusController(objects, policyResource, source, registry) });
  c.register(Tokens.AdmissionPlugin, { useValue: new ValidatingAdmissionPolicyPlugin(source, params, resolveLater(c, Tokens.NamespaceLookup), resolveLater(c, Tokens.Authorization), staticSource) });
}
