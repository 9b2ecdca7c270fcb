import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import type { ServiceResolver } from '../../core/contracts/service-resolver.js';
import { postWebhook, WebhookCallError } from '../../lib/webhook/webhook-client.js';
import { addAuditAnnotation } from '../../core/contracts/audit-annotation.js';
import { admissionReview, decodeReviewResponse, verifyAdmissionResponse, WebhookAnswerError, type AdmissionResponse } from './admission-review.js';
import { dryRunUnsupported, WebhookCallFailed, webhookDenial } from './webhook-errors.js';
import type { WebhookInvocation } from './webhook-invocation.js';
import type { Metrics } from '../../core/contracts/metrics.js';
import { performance } from 'node:perf_hooks';

/**
 * Calls one webhook (kube's callHook): a dry run refused when it has side effects (400), the AdmissionReview posted
 * with its timeout (a Service's endpoint found through `services`), the answer decoded and verified; its audit
 * annotations (prefixed with the webhook's name) and warnings are recorded; a denial throws the webhook's Status. A
 * failure to call it or a nonsensical answer throws WebhookCallFailed, which the failurePolicy decides on. The call's
 * duration is observed as kube's apiserver_admission_webhook_admission_duration_seconds (type "admit" or
 * "validating"; rejected unless allowed or failed open).
 */
export async function callWebhook(invocation: WebhookInvocation, attrs: AdmissionAttributes, mutating: boolean, services: ServiceResolver, metrics?: Metrics): Promise<AdmissionResponse> {
  if (!metrics) return callHook(invocation, attrs, mutating, services);
  const started = performance.now();
  let rejected = true;
  try {
    const response = await callHook(invocation, attrs, mutating, services);
    rejected = false;
    return response;
  } catch (err) {
    if (err instanceof WebhookCallFailed && invocation.hook.ignoreFailures) rejected = false;
    throw err;
  } finally {
    const labels = { name: invocation.hook.name, type: mutating ? 'admit' : 'validating', operation: attrs.operation, rejected: String(rejected) };
    metrics.admissionWebhookDuration.observe(labels, (performance.now() - started) / 1000);
  }
}

async function callHook(invocation: WebhookInvocation, attrs: AdmissionAttributes, mutating: boolean, services: ServiceResolver): Promise<AdmissionResponse> {
  const { hook, request } = invocation;
  if (attrs.dryRun && !hook.dryRunSafe) throw dryRunUnsupported(hook.name);
  const version = hook.reviewVersion;
  if (!version) {
    throw new WebhookCallFailed(hook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  }
  let response: AdmissionResponse;
  try {
    const answer = await postWebhook(hook.hook.clientConfig, admissionReview(version, request), hook.timeoutMs, services);
    const review = decodeReviewResponse(answer, version);
    response = verifyAdmissionResponse(request.uid, mutating, review, version);
  } catch (err) {
    if (err instanceof WebhookCallError) throw new WebhookCallFailed(hook.name, `failed to call webhook: ${err.message}`);
    if (err instanceof WebhookAnswerError) throw new WebhookCallFailed(hook.name, err.message);
    throw err;
  }
  for (const [key, value] of Object.entries(response.auditAnnotations ?? {})) addAuditAnnotation(attrs, `${hook.name}/${key}`, value);
  for (const warning of response.warnings ?? []) if (warning) attrs.warnings.push(warning);
  if (!response.allowed) throw webhookDenial(hook.name, response.result);
  return response;
}
