import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../core/contracts/resource-type.js';

/**
 * kube's webhookReinvokeContext: which IfNeeded webhooks ran before the object last changed, and so must run again
 * in the reinvocation round, and what the object looked like after the last webhook round (to tell whether in-process
 * plugins changed it since).
 */
export class WebhookReinvokeContext {
  private lastOutput?: KubeObject;
  private previouslyInvoked = new Set<string>();
  private readonly reinvoke = new Set<string>();

  shouldReinvoke(uid: string): boolean {
    return this.reinvoke.has(uid);
  }

  outputChangedSince(object: KubeObject): boolean {
    return !isDeepStrictEqual(this.lastOutput, object);
  }

  setLastOutput(object: KubeObject): void {
    this.lastOutput = structuredClone(object);
  }

  addPreviouslyInvoked(uid: string): void {
    this.previouslyInvoked.add(uid);
  }

  /** The object changed: every IfNeeded webhook invoked so far must see it again. */
  requireReinvokingPreviouslyInvoked(): void {
    for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
    this.previouslyInvoked = new Set();
  }
}
