import type { KubeObject, ResourceType, WriteSettlement } from '../contracts/resource-type.js';
import type { AdmissionAttributes } from '../contracts/admission-attributes.js';

/** What of a write's attributes the claim reads. */
type ClaimedWrite = Pick<AdmissionAttributes, 'object' | 'oldObject' | 'subresource' | 'dryRun'> & { rt: ResourceType };

/**
 * What one write of the generic store took from the pools its type's objects share (the strategy's beginWrite, e.g. a
 * Service's cluster IP): taken after mutating admission, settled by the store once the write has ended.
 */
export class WriteClaim {
  private settlement?: WriteSettlement;

  /** Takes what the admitted object needs; an update retried on a newer object first gives back its earlier claim. */
  async begin(attrs: ClaimedWrite): Promise<void> {
    this.settle(undefined);
    const begin = attrs.rt.strategy?.beginWrite;
    if (begin && !attrs.subresource) this.settlement = await begin(attrs.object, attrs.oldObject, { dryRun: attrs.dryRun });
  }

  /** Ends the claim: the object as stored, or undefined when the write failed (what was taken goes back). */
  settle(stored: KubeObject | undefined): void {
    const settlement = this.settlement;
    this.settlement = undefined;
    settlement?.(stored);
  }

  /** Settles the claim with the outcome of `write` (`stored`: the object it stored). */
  async around<R>(write: Promise<R>, stored: (result: R) => KubeObject): Promise<R> {
    try {
      const result = await write;
      this.settle(stored(result));
      return result;
    } catch (err) {
      this.settle(undefined);
      throw err;
    }
  }
}
