import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import type { AdmissionPlugin } from '../../core/contracts/admission-plugin.js';
import type { MatchContext } from './webhook-invocation.js';
import { isExemptFromWebhooks } from './exempt-resources.js';
import type { WebhookSource } from './webhook-source.js';
import type { WebhookAccessor } from './webhook-accessor.js';

/**
 * What kube's MutatingAdmissionWebhook and ValidatingAdmissionWebhook share: they look at every request (each
 * webhook's own rules decide) and call the webhooks their configuration kind lists — those loaded from static
 * manifest files first (KEP-5793), on every request; then those stored through the API, except on requests that
 * configure admission.
 */
export abstract class WebhookAdmissionPlugin implements AdmissionPlugin {
  abstract readonly name: string;
  readonly operations = ['*'] as const;
  readonly rules = [{ apiGroups: ['*'], resources: ['*/*'] }];
  readonly sideEffects = 'None';

  constructor(
    protected readonly source: WebhookSource,
    protected readonly ctx: MatchContext,
    protected readonly staticSource?: WebhookSource,
  ) {}

  /** The webhooks that may be called for a request: the static ones, then the stored ones unless the request configures admission. */
  protected webhooksFor(attrs: AdmissionAttributes): readonly WebhookAccessor[] {
    const stored = isExemptFromWebhooks(attrs) ? [] : this.source.webhooks();
    const fromFiles = this.staticSource?.webhooks() ?? [];
    return fromFiles.length ? [...fromFiles, ...stored] : stored;
  }
}
