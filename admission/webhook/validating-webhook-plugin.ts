import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import { callWebhook } from './webhook-call.js';
import { addAuditAnnotation } from '../../core/contracts/audit-annotation.js';
import { WebhookCallFailed } from './webhook-errors.js';
import { shouldCallHook, type WebhookInvocation } from './webhook-invocation.js';
import type { WebhookAccessor } from './webhook-accessor.js';
import { WebhookAdmissionPlugin } from './webhook-admission-plugin.js';

/** kube's key of the audit annotation recording that a validating webhook failed open. */
const failedOpenPrefix = 'failed-open.validating.webhook.admission.k8s.io/';

/**
 * kube's ValidatingAdmissionWebhook: every ValidatingWebhookConfiguration's webhooks that match the request are
 * called at once, in the validating phase; the first refusal to arrive fails the request. A webhook that cannot be
 * called fails the request (500) under failurePolicy Fail and is ignored under Ignore.
 */
export class ValidatingWebhookPlugin extends WebhookAdmissionPlugin {
  readonly name = 'ValidatingAdmissionWebhook';

  validate(attrs: AdmissionAttributes): Promise<void> | void {
    const hooks = this.webhooksFor(attrs);
    if (!hooks.length) return;
    return this.dispatch(attrs, hooks);
  }

  private async dispatch(attrs: AdmissionAttributes, hooks: readonly WebhookAccessor[]): Promise<void> {
    const invocations: WebhookInvocation[] = [];
    for (const hook of hooks) {
      const invocation = await shouldCallHook(hook, attrs, this.ctx);
      if (invocation) invocations.push(invocation);
    }
    if (!invocations.length) return;
    const failures: unknown[] = [];
    await Promise.all(
      invocations.map(async (invocation, index) => {
        try {
          await callWebhook(invocation, attrs, false, this.ctx.services, this.ctx.metrics);
        } catch (err) {
          if (err instanceof WebhookCallFailed) {
            if (invocation.hook.ignoreFailures) {
              addAuditAnnotation(attrs, `${failedOpenPrefix}round_0_index_${index}`, invocation.hook.name);
              return;
            }
            failures.push(err.toApiError());
            return;
          }
          failures.push(err);
        }
      }),
    );
    // kube reports the first error to arrive and drops the others
    if (failures.length) throw failures[0];
  }
}
