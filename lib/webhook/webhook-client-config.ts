/** Where a webhook listens: admissionregistration/apiextensions `WebhookClientConfig` (only `url` can be dialled). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of PEM CA certificates that sign the webhook's serving certificate (system roots when absent). */
  caBundle?: string;
}
