import type { KubeObject } from '../../core/contracts/resource-type.js';
import { configurationWebhooks, type WebhookAccessor } from './webhook-accessor.js';

/**
 * The webhooks of one configuration kind, from one source — storage, followed by an informer (so every kapi instance
 * on the same storage calls the same webhooks), or the static manifest files — compiled once per change, in kube's
 * calling order.
 */
export class WebhookSource {
  private hooks: readonly WebhookAccessor[] = [];
  /** Accessors per configuration and resourceVersion, so a change recompiles only the configuration that changed. */
  private compiled = new Map<string, WebhookAccessor[]>();

  webhooks(): readonly WebhookAccessor[] {
    return this.hooks;
  }

  /** Takes every state of the source's configurations, keyed by name (they are cluster-scoped). */
  readonly update = (objects: ReadonlyMap<string, KubeObject>): void => {
    const next = new Map<string, WebhookAccessor[]>();
    // kube calls the configurations' webhooks ordered by configuration name
    const names = [...objects.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const config = objects.get(name)!;
      // a configuration from files has no resourceVersion, but a new uid at every load
      const key = `${name}@${config.metadata?.resourceVersion ?? ''}@${config.metadata?.uid ?? ''}`;
      next.set(key, this.compiled.get(key) ?? configurationWebhooks(config));
    }
    this.compiled = next;
    this.hooks = [...next.values()].flat();
  };
}
