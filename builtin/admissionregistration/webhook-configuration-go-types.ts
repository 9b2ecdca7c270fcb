import type { WebhookConfigurationKind } from './webhook-configuration-types.js';
import { goTypes as t, type GoStructType, type GoType } from '../../lib/go/json-decoding.js';
import { labelSelectorGoType, kindGoType } from '../../schemas/object-meta-go-type.js';
import { matchConditionGoType, ruleWithOperationsFields } from './admission-registration-go-types.js';

const clientConfig = t.struct('v1.WebhookClientConfig', {
  url: t.string(),
  service: t.struct('v1.ServiceReference', { namespace: t.string(), name: t.string(), path: t.string(), port: t.int32 }),
  caBundle: t.bytes,
});

const rule = t.struct('v1.RuleWithOperations', ruleWithOperationsFields);

function webhookType(kind: 'Validating' | 'Mutating'): GoType {
  return t.struct(`v1.${kind}Webhook`, {
    name: t.string(),
    clientConfig,
    rules: t.slice(rule),
    failurePolicy: t.string('v1.FailurePolicyType'),
    matchPolicy: t.string('v1.MatchPolicyType'),
    namespaceSelector: labelSelectorGoType,
    objectSelector: labelSelectorGoType,
    sideEffects: t.string('v1.SideEffectClass'),
    timeoutSeconds: t.int32,
    admissionReviewVersions: t.slice(t.string()),
    matchConditions: t.slice(matchConditionGoType),
    ...(kind === 'Mutating' ? { reinvocationPolicy: t.string('v1.ReinvocationPolicyType') } : {}),
  });
}

/** The Go types kube decodes webhook configurations into. */
export const webhookConfigurationGoTypes: Record<WebhookConfigurationKind, GoStructType> = {
  ValidatingWebhookConfiguration: kindGoType('v1.ValidatingWebhookConfiguration', { webhooks: t.slice(webhookType('Validating')) }),
  MutatingWebhookConfiguration: kindGoType('v1.MutatingWebhookConfiguration', { webhooks: t.slice(webhookType('Mutating')) }),
};
