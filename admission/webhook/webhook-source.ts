import type { Controller } from '../../core/contracts/controller.js';
import type { Informers } from '../../core/contracts/informer.js';
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { objectsFollower } from '../objects-follower.js';
import { configurationWebhooks, type WebhookAccessor } from './webhook-accessor.js';

/**
 * The webhooks of one configuration kind as storage has them, followed by an informer (so every kapi instance on the
 * same storage calls the same webhooks) and compiled once per change, in kube's calling order.
 */
export class WebhookSource {
  readonly follower: Controller;
  private hooks: readonly WebhookAccessor[] = [];
  /** Accessors per configuration and resourceVersion, so a change recompiles only the configuration that changed. */
  private compiled = new Map<string, WebhookAccessor[]>();

  constructor(informers: () => Informers, rt: ResourceType) {
    this.follower = objectsFollower(informers, rt, (objects) => this.update(objects));
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
