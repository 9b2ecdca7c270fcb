import type { StatusCause } from '../../core/contracts/status.js';
import { fieldErrors } from '../../core/contracts/api-error.js';
import { isDNS1035Label } from '../../lib/k8s/names.js';
import { goQuote } from '../../lib/go/go-values.js';
import { validateCaBundle, validateWebhookService, validateWebhookUrl } from '../../lib/webhook/client-config-validation.js';
import { condition, type Crd, type CrdConversion } from './crd-types.js';

const strategies = ['None', 'Webhook'];
/** The ConversionReview versions kube-apiserver accepts in conversionReviewVersions. */
const acceptedReviewVersions = ['v1', 'v1beta1'];

/**
 * kube's checks of spec.conversion (validateCustomResourceConversion and the preserveUnknownFields rule). kube
 * validates the internal version of the CRD, so the paths are the internal ones: `spec.conversion.webhookClientConfig`
 * and `spec.conversion.conversionReviewVersions` for v1's `webhook.clientConfig` and `webhook.conversionReviewVersions`.
 */
export function validateCrdConversion(crd: Crd, old?: Crd): StatusCause[] {
  const conversion = crd.spec.conversion;
  if (conversion === undefined || conversion === null) return [];
  if (typeof conversion !== 'object') return [fieldErrors.invalid('spec.conversion', conversion, 'must be an object')];
  const path = 'spec.conversion';
  const causes: StatusCause[] = [];
  const strategy: unknown = conversion.strategy;
  if (strategy !== 'None' && crd.spec.preserveUnknownFields === true) {
    causes.push(fieldErrors.invalid(`${path}.strategy`, strategy ?? '', 'must be None if spec.preserveUnknownFields is true'));
  }
  if (strategy === undefined || strategy === null || strategy === '') causes.push(fieldErrors.required(`${path}.strategy`));
  else if (typeof strategy !== 'string' || !strategies.includes(strategy)) causes.push(fieldErrors.notSupported(`${path}.strategy`, strategy, strategies));
  const webhook = conversion.webhook ?? undefined;
  const clientConfig = webhook?.clientConfig ?? undefined;
  const reviewVersions = webhook?.conversionReviewVersions ?? [];
  if (strategy !== 'Webhook') {
    if (clientConfig) causes.push(fieldErrors.forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length) causes.push(fieldErrors.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
    return causes;
  }
  if (!clientConfig) causes.push(fieldErrors.required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
  else {
    const ccPath = `${path}.webhookClientConfig`;
    const hasUrl = clientConfig.url !== undefined && clientConfig.url !== null;
    const hasService = clientConfig.service !== undefined && clientConfig.service !== null;
    if (hasUrl === hasService) causes.push(fieldErrors.required(ccPath, 'exactly one of url or service is required'));
    else if (hasUrl) causes.push(...validateWebhookUrl(String(clientConfig.url), `${ccPath}.url`));
    else causes.push(...validateWebhookService(clientConfig.service!, `${ccPath}.service`));
    if (clientConfig.caBundle && !allowInvalidCaBundle(old)) causes.push(...validateCaBundle(clientConfig.caBundle, `${ccPath}.caBundle`));
  }
  causes.push(...validateReviewVersions(reviewVersions, requireRecognizedVersion(old), `${path}.conversionReviewVersions`));
  return causes;
}

/** kube's validateConversionReviewVersions. */
function validateReviewVersions(versions: string[], requireRecognized: boolean, path: string): StatusCause[] {
  if (versions.length === 0) return [fieldErrors.required(path)];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      causes.push(fieldErrors.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(String(v))) causes.push(fieldErrors.invalid(`${path}[${i}]`, v, msg));
  });
  if (requireRecognized && !versions.some((v) => acceptedReviewVersions.includes(v))) {
    const printed = `[]string{${versions.map((v) => goQuote(String(v))).join(', ')}}`;
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${printed}: must include at least one of ${acceptedReviewVersions.join(', ')}`, field: path });
  }
  return causes;
}

/** On update, a CRD whose review versions were already unrecognized may keep them (kube's requireRecognizedConversionReviewVersion). */
function requireRecognizedVersion(old: Crd | undefined): boolean {
  const versions = webhookOf(old?.spec?.conversion)?.conversionReviewVersions ?? [];
  return versions.length === 0 || versions.some((v) => acceptedReviewVersions.includes(v));
}

/** An invalid caBundle is allowed on create, before the CRD is established, or when the old one was invalid too. */
function allowInvalidCaBundle(old: Crd | undefined): boolean {
  if (!old || condition(old, 'Established')?.status !== 'True') return true;
  const oldBundle = webhookOf(old.spec?.conversion)?.clientConfig?.caBundle;
  if (!oldBundle) return false;
  return validateCaBundle(oldBundle, 'caBundle').length > 0;
}

function webhookOf(conversion: CrdConversion | undefined): CrdConversion['webhook'] {
  return conversion && typeof conversion === 'object' ? (conversion.webhook ?? undefined) : undefined;
}
