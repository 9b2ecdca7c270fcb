import type { KubeObject, ScaleSubresource } from '../contracts/resource-type.js';
import { nestedInt64, nestedString } from '../registry/scale-paths.js';
import { fieldErrors, type StatusCause } from '../contracts/api-error.js';

const maxInt32 = 2 ** 31 - 1;

/** A replicas field as kube's custom resource validator checks it: an int64 that fits a Scale's int32, not negative. */
function replicasCauses(obj: KubeObject, path: string): StatusCause[] {
  const { value, error } = nestedInt64(obj, path);
  // kube names the field by the CRD's path as written (`.spec.replicas`) and shows 0 for a value it could not read.
  if (error) return [fieldErrors.invalid(path, 0, error)];
  if (typeof value !== 'number') return [];
  if (value < 0) return [fieldErrors.invalid(path, value, 'should be a non-negative integer')];
  if (value > maxInt32) return [fieldErrors.invalid(path, value, `should be less than or equal to ${maxInt32}`)];
  return [];
}

/** The spec replicas of a custom resource with a scale subresource (checked on writes of the object and of /scale). */
export function scaleSpecCauses(obj: KubeObject, scale: ScaleSubresource): StatusCause[] {
  return replicasCauses(obj, scale.specReplicasPath);
}

/** The status replicas and label selector (checked on every write of the object, its status and its scale). */
export function scaleStatusCauses(obj: KubeObject, scale: ScaleSubresource): StatusCause[] {
  const causes = replicasCauses(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath) {
    const { error } = nestedString(obj, scale.labelSelectorPath);
    if (error) causes.push(fieldErrors.invalid(scale.labelSelectorPath, '', error));
  }
  return causes;
}
