import { ApiError, errors } from '../../core/contracts/api-error.js';
import type { StatusDetails } from '../../core/contracts/status.js';
import type { ResultStatus } from './admission-review.js';

/**
 * A webhook that could not be called or answered nonsense (kube's ErrCallingWebhook): the request fails with a 500
 * under failurePolicy Fail and goes on under Ignore.
 */
export class WebhookCallFailed extends Error {
  constructor(
    readonly webhook: string,
    reason: string,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhook)}: ${reason}`);
    this.name = 'WebhookCallFailed';
  }

  /** kube's NewInternalError of the call error (failurePolicy Fail). */
  toApiError(): ApiError {
    return errors.internal(this.message);
  }
}

/**
 * A webhook's denial (kube's ToStatusErr): the webhook's Status with its code (at least 400), reason, details, and
 * the message `admission webhook "<name>" denied the request: <message or reason>` (or `… without explanation`).
 */
export function webhookDenial(webhook: string, result: ResultStatus | undefined): ApiError {
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const status = result ?? {};
  const code = typeof status.code === 'number' && status.code >= 400 ? status.code : 400;
  const message = status.message ? `${deniedBy}: ${status.message}` : status.reason ? `${deniedBy}: ${status.reason}` : `${deniedBy} without explanation`;
  const err = new ApiError(code, status.reason ?? '', message, status.details as StatusDetails | undefined);
  // an empty reason is omitted from the Status, as Go's omitempty does
  if (!status.reason) delete err.status.reason;
  return err;
}

/** A dry run reaching a webhook that has side effects (sideEffects Unknown or Some): 400 whatever the failurePolicy. */
export function dryRunUnsupported(webhook: string): ApiError {
  return errors.badRequest(`admission webhook ${JSON.stringify(webhook)} does not support dry run`);
}
