import { errors } from '../../errors/api-error.js';
import type { KubeObject } from '../../registry/resource-type.js';
import type { WebhookConfigurationKind } from './webhook-configuration-types.js';
import { fillGoZeroValues, goDecodeError, goTypes as t, type GoType } from './webhook-go-types.js';

const labelSelector = t.struct('v1.LabelSelector', {
  matchLabels: t.map(t.string()),
  matchExpressions: t.slice(t.struct('v1.LabelSelectorRequirement', { key: t.string(), operator: t.string('v1.LabelSelectorOperator'), values: t.slice(t.string()) })),
});

const clientConfig = t.struct('v1.WebhookClientConfig', {
  url: t.string(),
  service: t.struct('v1.ServiceReference', { namespace: t.string(), name: t.string(), path: t.string(), port: t.int32 }),
  caBundle: t.bytes,
});

const rule = t.struct('v1.RuleWithOperations', {
  operations: t.slice(t.string('v1.OperationType')),
  apiGroups: t.slice(t.string()),
  apiVersions: t.slice(t.string()),
  resources: t.slice(t.string()),
  scope: t.string('v1.ScopeType'),
});

function webhookType(kind: 'Validating' | 'Mutating'): GoType {
  return t.struct(`v1.${kind}Webhook`, {
    name: t.string(),
    clientConfig,
    rules: t.slice(rule),
    failurePolicy: t.string('v1.FailurePolicyType'),
    matchPolicy: t.string('v1.MatchPolicyType'),
    namespaceSelector: labelSelector,
    objectSelector: labelSelector,
    sideEffects: t.string('v1.SideEffectClass'),
    timeoutSeconds: t.int32,
    admissionReviewVersions: t.slice(t.string()),
    matchConditions: t.slice(t.struct('v1.MatchCondition', { name: t.string(), expression: t.string() })),
    ...(kind === 'Mutating' ? { reinvocationPolicy: t.string('v1.ReinvocationPolicyType') } : {}),
  });
}

const configurationTypes = {
  ValidatingWebhookConfiguration: t.struct('v1.ValidatingWebhookConfiguration', { webhooks: t.slice(webhookType('Validating')) }),
  MutatingWebhookConfiguration: t.struct('v1.MutatingWebhookConfiguration', { webhooks: t.slice(webhookType('Mutating')) }),
} as Record<WebhookConfigurationKind, GoType & { kind: 'struct' }>;

/**
 * Decodes a webhook configuration body as kube does into its Go types: a body that does not fit them is refused (400,
 * kube's text); nulls inside lists and maps become the zero values Go leaves there.
 */
export function decodeWebhookConfiguration(obj: KubeObject, kind: WebhookConfigurationKind): void {
  const type = configurationTypes[kind];
  const err = goDecodeError(obj, type);
  if (err) throw errors.badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${err}`);
  fillGoZeroValues(obj, type);
}
