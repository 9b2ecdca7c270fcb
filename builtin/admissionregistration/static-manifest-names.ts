import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { StatusCause } from '../../core/contracts/status.js';
import { fieldErrors } from '../../core/contracts/api-error.js';

/**
 * kube's reserved suffix of admission objects loaded from static manifest files (KEP-5793): every object in those
 * files must carry it, and no object created through the API may.
 */
export const staticManifestSuffix = '.static.k8s.io';

/**
 * The cause refusing an API create of an admission object whose name ends with the reserved suffix (kube's
 * ValidateStaticSuffix, run by the kinds' create validation): such names belong to objects loaded from files.
 */
export function reservedStaticNameCauses(obj: KubeObject): StatusCause[] {
  const name = obj.metadata?.name ?? '';
  if (!name.endsWith(staticManifestSuffix)) return [];
  const message = `names ending with "${staticManifestSuffix}" are reserved for static manifest-based configurations and cannot be managed via the API`;
  return [fieldErrors.invalid('metadata.name', name, message)];
}
