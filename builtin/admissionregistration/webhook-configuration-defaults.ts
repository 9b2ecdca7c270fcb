import type { WebhookConfiguration } from './webhook-configuration-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * kube's admissionregistration/v1 defaults, applied as the object is decoded: failurePolicy Fail, matchPolicy
 * Equivalent, empty namespace and object selectors, timeoutSeconds 10, reinvocationPolicy Never (mutating), every
 * rule's scope '*', and port 443 for a service reference.
 */
export function applyWebhookConfigurationDefaults(config: WebhookConfiguration, mutating: boolean): void {
  if (!Array.isArray(config.webhooks)) return;
  for (const hook of config.webhooks as unknown[]) {
    if (!isObject(hook)) continue;
    hook.failurePolicy ??= 'Fail';
    hook.matchPolicy ??= 'Equivalent';
    hook.namespaceSelector ??= {};
    hook.objectSelector ??= {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= 'Never';
    if (Array.isArray(hook.rules)) for (const rule of hook.rules as unknown[]) if (isObject(rule)) rule.scope ??= '*';
    const service = isObject(hook.clientConfig) ? hook.clientConfig.service : undefined;
    if (isObject(service)) service.port ??= 443;
  }
}
