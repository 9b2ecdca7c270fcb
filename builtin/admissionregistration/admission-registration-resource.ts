import type { ResourceStrategy, ResourceType, ResourceVersionDef } from '../../core/contracts/resource-type.js';
import type { GoStructType } from '../../lib/go/json-decoding.js';

export const admissionRegistrationGroup = 'admissionregistration.k8s.io';

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * One admissionregistration.k8s.io kind as kube serves it: cluster-scoped, in the api-extensions category, stored
 * as v1 and served in v1 and `alsoServed` (same shape, `version`: its schema, printer and subresources), updates
 * without a resourceVersion allowed, writes decoded into its Go type `goType`.
 */
export function admissionRegistrationResource(
  kind: string,
  goType: GoStructType,
  version: Omit<ResourceVersionDef, 'name' | 'served' | 'storage'>,
  strategy: ResourceStrategy,
  alsoServed: string[] = [],
): ResourceType {
  const singular = kind.toLowerCase();
  const plural = singular.endsWith('y') ? `${singular.slice(0, -1)}ies` : `${singular}s`;
  return {
    group: admissionRegistrationGroup,
    names: { plural, singular, kind, listKind: `${kind}List`, categories: ['api-extensions'] },
    scope: 'Cluster',
    allowUnconditionalUpdate: true,
    goType,
    verbs,
    versions: [{ name: 'v1', served: true, storage: true, ...version }, ...alsoServed.map((name) => ({ name, served: true, storage: false, ...version }))],
    strategy,
  };
}
