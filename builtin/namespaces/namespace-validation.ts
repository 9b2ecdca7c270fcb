import type { KubeObject } from '../../core/contracts/resource-type.js';
import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isQualifiedName } from '../../lib/k8s/names.js';
import { STANDARD_FINALIZERS } from '../../lib/k8s/finalizers.js';

/**
 * A Namespace's spec.finalizers as kube's ValidateNamespace checks them: qualified names, unprefixed ones standard.
 * Writes through /finalize name each item by its index (ValidateNamespaceFinalizeUpdate); other writes do not.
 */
export function namespaceFinalizerCauses(obj: KubeObject, subresource: string): StatusCause[] {
  const finalizers = (obj.spec as { finalizers?: unknown } | undefined)?.finalizers;
  if (!Array.isArray(finalizers)) return [];
  return finalizers.flatMap((name: string, i) => {
    const field = subresource === 'finalize' ? `spec.finalizers[${i}]` : 'spec.finalizers';
    const causes = isQualifiedName(name).map((msg) => fieldErrors.invalid(field, name, msg));
    if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
      causes.push(fieldErrors.invalid(field, name, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
    return causes;
  });
}
