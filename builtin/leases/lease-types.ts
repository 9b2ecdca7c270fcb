import type { KubeObject } from '../../core/contracts/resource-type.js';

/** coordination.k8s.io/v1 LeaseSpec (already decoded into its Go type: the values have their types). */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}
