import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import type { Lease } from './lease-types.js';

/**
 * A Lease's spec as kube's ValidateLeaseSpec checks it, on create and update alike. spec.strategy and
 * spec.preferredHolder are dropped before (dropDisabledFields), so their rules never apply.
 */
export function validateLease(lease: Lease): StatusCause[] {
  const spec = lease.spec ?? {};
  const causes: StatusCause[] = [];
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    causes.push(fieldErrors.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    causes.push(fieldErrors.invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  return causes;
}

/**
 * kube's Lease strategy with the CoordinatedLeaderElection feature off (its default): spec.strategy and
 * spec.preferredHolder are dropped from a write unless the stored Lease already has them.
 */
export function dropDisabledFields(lease: Lease, old?: Lease): void {
  const spec = lease.spec;
  if (!spec) return;
  if (old?.spec?.strategy === undefined) delete spec.strategy;
  if (old?.spec?.preferredHolder === undefined) delete spec.preferredHolder;
}
