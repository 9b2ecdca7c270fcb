import type { DependencyContainer } from 'tsyringe';
import { resolveLater } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { Controller } from '../../core/contracts/controller.js';
import { objectsFollower } from '../objects-follower.js';
import {
  validatingAdmissionPolicyBindingResource,
  validatingAdmissionPolicyResource,
} from '../../builtin/admissionregistration/validating-admission-policy-resource.js';
import { followParamsInUse, ParamInformers } from './param-informers.js';
import { policyExpressionChecker } from './policy-expression-checker.js';
import { compilePolicy } from './compiled-policy.js';
import { PolicySource } from './policy-source.js';
import { PolicyStatusController } from './policy-status-controller.js';
import { ValidatingAdmissionPolicyPlugin } from './validating-admission-policy-plugin.js';
import { validatingAdmissionPolicyManifests } from './validating-admission-policy-manifests.js';
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
  manifests.push(validatingAdmissionPolicyManifests(policyResource, bindingResource, policyExpressionChecker, staticSource));
  const informers = resolveLater(c, Tokens.Informers);
  const params = new ParamInformers(informers, registry);
  followParamsInUse(source, params);

  c.register(Tokens.Controller, { useValue: objectsFollower(informers, policyResource, source.policiesChanged) });
  c.register(Tokens.Controller, { useValue: objectsFollower(informers, bindingResource, source.bindingsChanged) });
  c.register(Tokens.Controller, { useValue: new PolicyStatusController(objects, policyResource, source, registry) });
  c.register(Tokens.AdmissionPlugin, { useValue: new ValidatingAdmissionPolicyPlugin(source, params, resolveLater(c, Tokens.NamespaceLookup), staticSource) });
}
