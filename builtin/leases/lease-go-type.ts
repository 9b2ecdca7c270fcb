import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { goMicroTime, kindGoType } from '../../schemas/object-meta-go-type.js';

/** coordination.k8s.io/v1 Lease as kube's decoder sees it. */
export const leaseGoType: GoStructType = kindGoType('v1.Lease', {
  spec: t.struct('v1.LeaseSpec', {
    holderIdentity: t.string(),
    leaseDurationSeconds: t.int32,
    acquireTime: goMicroTime,
    renewTime: goMicroTime,
    leaseTransitions: t.int32,
    strategy: t.string('v1.CoordinatedLeaseStrategy'),
    preferredHolder: t.string(),
  }),
});
