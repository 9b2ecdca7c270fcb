import type { ResourceType } from '../contracts/resource-type.js';
import type { ObjectConverter } from '../contracts/object-converter.js';
import { NoneConverter } from './none-converter.js';
import { WebhookConverter } from './webhook-converter.js';

/** kube-apiserver's conversion webhook timeout. */
const defaultWebhookTimeoutMs = 30_000;

/**
 * The conversion webhook timeout in milliseconds: 30 s as in kube-apiserver, unless the environment variable
 * KAPI_CONVERSION_WEBHOOK_TIMEOUT_MS sets another (a knob for tests that exercise a webhook that never answers).
 */
export function conversionWebhookTimeoutMs(): number {
  const ms = Number(process.env['KAPI_CONVERSION_WEBHOOK_TIMEOUT_MS']);
  return Number.isFinite(ms) && ms > 0 ? ms : defaultWebhookTimeoutMs;
}

/** One converter per ResourceType object: a changed CRD registers a new ResourceType, and so gets a new converter. */
const converters = new WeakMap<ResourceType, ObjectConverter>();

/**
 * The converter of a resource type: a resource stored as another's own, else chosen from its CRD's conversion strategy
 * (None for built-in kinds).
 */
export function converterFor(rt: ResourceType): ObjectConverter {
  if (rt.storedAs) return rt.storedAs.converter;
  let converter = converters.get(rt);
  if (!converter) {
    const webhook = rt.conversion?.strategy === 'Webhook' ? rt.conversion.webhook : undefined;
    converter = webhook ? new WebhookConverter(rt, webhook, conversionWebhookTimeoutMs()) : new NoneConverter(rt.names.kind);
    converters.set(rt, converter);
  }
  return converter;
}
