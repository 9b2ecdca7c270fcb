import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import type { AdmissionPlugin } from '../../core/contracts/admission-plugin.js';
import type { MatchContext } from './webhook-invocation.js';
import { isExemptFromWebhooks } from './exempt-resources.js';
import type { WebhookSource } from './webhook-source.js';
import type { WebhookAccessor } from './webhook-accessor.js';

/**
 * What kube's MutatingAdmissionWebhook and ValidatingAdmissionWebhook share: they look at every request (each
 * webhook's own rules decide) and call the webhooks their configuration kind lists.
 */
export abstract class WebhookAdmissionPlugin implements AdmissionPlugin {
  abstract readonly name: string;
  readonly operations = ['*'] as const;
  readonly rules = [{ apiGroups: ['*'], resources: ['*/*'] }];
  readonly sideEffects = 'None';

  constructor(
    protected readonly source: WebhookSource,
    protected readonly ctx: MatchContext,
  ) {}

  /** The webhooks that may be called for a request: none when there are none or the request configures admission. */
  protected webhooksFor(attrs: AdmissionAttributes): readonly WebhookAccessor[] {
    const hooks = this.source.webhooks();
    return hooks.length && !isExemptFromWebhooks(attrs) ? hooks : [];
  }
}
