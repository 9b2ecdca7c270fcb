import type { ResourceType } from '../contracts/resource-type.js';
import type { AdmissionAttributes } from '../contracts/admission-attributes.js';
import { AdmissionChain } from '../admission/admission-chain.js';
import type { WriteClaim } from './write-claim.js';

/** The attributes of one write, handed to every stage: what admission plugins see, plus the resource type. */
export interface WriteAttributes extends AdmissionAttributes {
  rt: ResourceType;
  /** The API version the client addressed. */
  version: string;
}

/** One step of the write path; throws an ApiError to refuse the write. */
export interface WriteStage {
  readonly name: string;
  run(attrs: WriteAttributes): Promise<void> | void;
}

/**
 * The fixed order every write goes through before storage, as in kube-apiserver:
 * the type's authorizeWrite (RBAC's escalation checks) → mutating admission → (the generic store's claim on shared
 * pools) → validation (schema, defaults, the resource's rules) → validating admission.
 */
export class WritePipeline {
  constructor(
    private readonly admission: AdmissionChain,
    private readonly validation: WriteStage[],
  ) {}

  /** The same validation without admission, for the writes kube makes in storage directly (a deleted CRD's objects). */
  withoutAdmission(): WritePipeline {
    return new WritePipeline(new AdmissionChain([]), this.validation);
  }

  /** Deletes run both admission phases (the object is the stored one); there is nothing new to validate. */
  async admitDelete(attrs: WriteAttributes): Promise<void> {
    await this.admission.admit(attrs);
    await this.admission.validate(attrs);
  }

  async run(attrs: WriteAttributes, claim?: WriteClaim): Promise<void> {
    const authorizeWrite = attrs.rt.strategy?.authorizeWrite;
    if (authorizeWrite && !attrs.subresource) {
      await authorizeWrite(attrs.object, attrs.oldObject, { user: attrs.userInfo, namespace: attrs.namespace, name: attrs.name });
    }
    await this.mutatingAdmission(attrs);
    await claim?.begin(attrs);
    await this.validate(attrs);
    await this.validatingAdmission(attrs);
  }

  /*
   * The three phases, for a write whose admission sees another object than validation does: a CRD's /scale, where
   * admission gets autoscaling/v1 Scales and validation the custom resource they were written into.
   */

  mutatingAdmission(attrs: WriteAttributes): Promise<void> {
    return this.admission.admit(attrs);
  }

  async validate(attrs: WriteAttributes): Promise<void> {
    for (const stage of this.validation) await stage.run(attrs);
  }

  validatingAdmission(attrs: WriteAttributes): Promise<void> {
    return this.admission.validate(attrs);
  }
}
