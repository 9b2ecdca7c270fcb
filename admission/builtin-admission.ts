import type { DependencyContainer } from 'tsyringe';
import { defineModule, type Module } from '../core/contracts/module.js';
import { Tokens } from '../core/contracts/tokens.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { CreatedBy } from './created-by.js';
import { registerMutatingWebhooks, registerValidatingWebhooks } from './webhook/admission-webhooks-module.js';
import { registerMutatingAdmissionPolicy } from './policy/mutating-admission-policy-module.js';
import { registerValidatingAdmissionPolicy } from './policy/validating-admission-policy-module.js';
import type { StaticManifestPlugin } from './manifests/static-manifest-plugin.js';
import { readAdmissionConfiguration } from './manifests/admission-configuration.js';
import { StaticManifestsController } from './manifests/static-manifests-controller.js';

export interface BuiltinAdmissionOptions {
  /**
   * kube-apiserver's `--admission-control-config-file`: an AdmissionConfiguration (apiserver.config.k8s.io/v1) giving
   * the webhook and policy plugins a `staticManifestsDir` of objects loaded from files. Read when the module is
   * registered: a bad file is an error then.
   */
  admissionControlConfigFile?: string;
}

/** Registers the controller loading and following the static manifests directories the configuration file names. */
function registerStaticManifests(c: DependencyContainer, file: string, plugins: StaticManifestPlugin[]): void {
  const settings = readAdmissionConfiguration(file, plugins);
  const dirs = plugins.flatMap((plugin) => {
    const dir = settings.get(plugin.name)?.staticManifestsDir;
    return dir ? [{ plugin, dir }] : [];
  });
  if (!dirs.length) return;
  const controller = new StaticManifestsController(dirs);
  c.register(Tokens.Controller, { useValue: controller });
  c.register(Tokens.HealthCheck, { useValue: controller.healthCheck });
}

/**
 * kapi's own admission plugins, in kube-apiserver's default order: NamespaceLifecycle, CreatedBy (off unless enabled
 * by name), MutatingAdmissionPolicy, MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook —
 * with the admissionregistration.k8s.io resources the last four are configured by, and their static manifests when
 * the admission configuration file names directories of them.
 */
export function builtinAdmission(options: BuiltinAdmissionOptions = {}): Module {
  return defineModule('builtin-admission', (c) => {
    const manifests: StaticManifestPlugin[] = [];
    c.register(Tokens.AdmissionPlugin, { useClass: NamespaceLifecycle });
    c.register(Tokens.AdmissionPlugin, { useClass: CreatedBy });
    registerMutatingAdmissionPolicy(c, manifests);
    registerMutatingWebhooks(c, manifests);
    registerValidatingAdmissionPolicy(c, manifests);
    registerValidatingWebhooks(c, manifests);
    if (options.admissionControlConfigFile) registerStaticManifests(c, options.admissionControlConfigFile, manifests);
  }, { needs: ['namespaces'] });
}
