import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import type { MatchConditionCompiler } from '../../builtin/admissionregistration/match-rules-validation.js';
import { validateWebhookConfiguration } from '../../builtin/admissionregistration/webhook-configuration-validation.js';
import type { WebhookConfiguration } from '../../builtin/admissionregistration/webhook-configuration-types.js';
import type { StaticManifestPlugin } from '../manifests/static-manifest-plugin.js';
import type { WebhookSource } from './webhook-source.js';

/** A webhook from files is called by URL only (kube: the service network may not be up when the server starts). */
function urlOnly(obj: KubeObject): string | undefined {
  const config = obj as WebhookConfiguration;
  for (const hook of config.webhooks ?? []) {
    const at = `webhook "${hook.name}" in "${config.metadata?.name ?? ''}"`;
    if (hook.clientConfig?.service) return `${at}: clientConfig.service is not supported for static manifests; use clientConfig.url instead`;
    if (!hook.clientConfig?.url) return `${at}: clientConfig.url is required for static manifests`;
  }
  return undefined;
}

/**
 * A webhook plugin's static manifests (apiserver.config.k8s.io/v1 WebhookAdmissionConfiguration, or v1alpha1
 * WebhookAdmission): configurations of its kind, put in force in `source`.
 */
export function webhookManifests(plugin: string, rt: ResourceType, compileCondition: MatchConditionCompiler, source: WebhookSource): StaticManifestPlugin {
  const mutating = rt.names.kind === 'MutatingWebhookConfiguration';
  return {
    name: plugin,
    configurationKinds: { 'apiserver.config.k8s.io/v1': ['WebhookAdmissionConfiguration'], 'apiserver.config.k8s.io/v1alpha1': ['WebhookAdmission'] },
    kinds: [{ rt, validate: (obj) => validateWebhookConfiguration(obj as WebhookConfiguration, mutating, compileCondition), restriction: urlOnly }],
    apply: (objects) => source.update(objects.get(rt.names.kind) ?? new Map()),
  };
}
