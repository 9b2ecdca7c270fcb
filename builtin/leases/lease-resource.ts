import type { ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { canonicalMicroTime } from '../../lib/go/micro-time.js';
import { leaseGoType } from './lease-go-type.js';
import { leaseTablePrinter } from './lease-printer.js';
import { dropDisabledFields, validateLease } from './lease-validation.js';
import type { Lease } from './lease-types.js';

/** The spec's MicroTimes as kube stores them (UTC, six fraction digits), whatever offset the client wrote. */
function canonicalTimes(lease: Lease): void {
  const spec = lease.spec;
  if (!spec) return;
  for (const field of ['acquireTime', 'renewTime'] as const) {
    const value = spec[field];
    if (value) spec[field] = canonicalMicroTime(value) ?? value;
  }
}

/**
 * coordination.k8s.io/v1 Lease: namespaced, what leader election and heartbeats hold. As in kube, an update must name
 * the resourceVersion it read (no unconditional updates): two candidates never both win.
 */
export function leaseResource(): ResourceType {
  return {
    group: 'coordination.k8s.io',
    names: { plural: 'leases', singular: 'lease', kind: 'Lease', listKind: 'LeaseList' },
    scope: 'Namespaced',
    allowUnconditionalUpdate: false,
    // kube's strategy AllowCreateOnUpdate: a PUT to a missing name creates it.
    allowCreateOnUpdate: true,
    withoutGeneration: true,
    goType: leaseGoType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema('lease.v1'), tablePrinter: leaseTablePrinter }],
    strategy: {
      prepareForCreate: (obj) => dropDisabledFields(obj as Lease),
      prepareForUpdate: (obj, old) => dropDisabledFields(obj as Lease, old as Lease),
      validate: (obj) => validateLease(obj as Lease),
      canonicalize: (obj) => canonicalTimes(obj as Lease),
    },
  };
}
