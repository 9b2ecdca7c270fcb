import type { WebhookClientConfig } from '../../lib/webhook/webhook-client-config.js';
import type { ServiceResolver } from './service-resolver.js';

/** A CRD's `spec.conversion` (apiextensions.k8s.io/v1 CustomResourceConversion) as its ResourceType carries it. */
export interface CustomResourceConversion {
  strategy: 'None' | 'Webhook';
  /** Set when the strategy is Webhook (CRD validation requires it then). */
  webhook?: WebhookConversion;
}

export interface WebhookConversion {
  clientConfig: WebhookClientConfig;
  /** The ConversionReview versions the webhook understands, preferred first (kube sends the first it knows). */
  conversionReviewVersions: string[];
  /** Where a `clientConfig.service` is dialled (the server's ServiceResolver; without one, no Service is found). */
  services?: ServiceResolver;
}
