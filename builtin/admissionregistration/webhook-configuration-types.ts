import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { LabelSelectorObject } from '../../lib/k8s/labels/label-selector.js';
import type { WebhookClientConfig } from '../../lib/webhook/webhook-client-config.js';

/** admissionregistration.k8s.io/v1 RuleWithOperations. */
export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  /** '*' (default), 'Cluster' or 'Namespaced'. */
  scope?: string;
}

export interface WebhookMatchCondition {
  name: string;
  expression: string;
}

/** The fields ValidatingWebhook and MutatingWebhook share. */
export interface AdmissionWebhook {
  name: string;
  clientConfig: WebhookClientConfig & { service?: { namespace: string; name: string; path?: string; port?: number } };
  rules?: WebhookRule[];
  /** 'Fail' (default) or 'Ignore'. */
  failurePolicy?: string;
  /** 'Equivalent' (default) or 'Exact'. */
  matchPolicy?: string;
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  /** 'None' or 'NoneOnDryRun' may be created; 'Unknown' and 'Some' only survive from older API versions. */
  sideEffects?: string;
  /** 1..30, default 10. */
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: WebhookMatchCondition[];
}

export interface MutatingWebhook extends AdmissionWebhook {
  /** 'Never' (default) or 'IfNeeded'. */
  reinvocationPolicy?: string;
}

/** Validating- or MutatingWebhookConfiguration (cluster-scoped). */
export interface WebhookConfiguration<W extends AdmissionWebhook = AdmissionWebhook> extends KubeObject {
  webhooks?: W[];
}

export type WebhookConfigurationKind = 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';
