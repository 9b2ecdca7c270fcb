import type { KVStore } from '../../core/contracts/kv-store.js';
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { ResourceInformer } from '../../core/store/resource-informer.js';
import { configurationWebhooks, type WebhookAccessor } from './webhook-accessor.js';

/**
 * The webhooks of one configuration kind as storage has them, followed by an informer (so every kapi instance on the
 * same storage calls the same webhooks) and compiled once per change, in kube's calling order.
 */
export class WebhookSource {
  readonly informer: ResourceInformer;
  private hooks: readonly WebhookAccessor[] = [];
  /** Accessors per configuration and resourceVersion, so a change recompiles only the configuration that changed. */
  private compiled = new Map<string, WebhookAccessor[]>();

  constructor(kv: () => KVStore, rt: ResourceType) {
    this.informer = new ResourceInformer(kv, rt, (objects) => this.update(objects));
  }

  webhooks(): readonly WebhookAccessor[] {
    return this.hooks;
  }

  private update(objects: ReadonlyMap<string, KubeObject>): void {
    const next = new Map<string, WebhookAccessor[]>();
    // kube calls the configurations' webhooks ordered by configuration name (keys are names: cluster-scoped)
    const names = [...objects.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const config = objects.get(name)!;
      const key = `${name}@${config.metadata?.resourceVersion ?? ''}`;
      next.set(key, this.compiled.get(key) ?? configurationWebhooks(config));
    }
    this.compiled = next;
    this.hooks = [...next.values()].flat();
  }
}
