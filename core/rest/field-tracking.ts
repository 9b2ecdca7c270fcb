import type { WriteRequest } from './write-request.js';
import type { KubeObject } from '../contracts/resource-type.js';
import type { FieldManagerContext } from '../ssa/field-manager.js';
import { recordUpdate } from '../ssa/field-manager.js';
import { apiVersionOf } from '../contracts/resource-type.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { versionModel } from '../handlers/merge-model.js';
import { cohabitantVersions } from './cohabitant-versions.js';

/** The field manager's view of this write: who writes, through which endpoint, under which merge model. */
export function fieldManagerContext(req: WriteRequest): FieldManagerContext {
  const subresource = req.subresource as FieldManagerContext['subresource'];
  return {
    model: versionModel(req), // the engine adds ObjectMeta's model itself
    manager: req.manager,
    apiVersion: apiVersionOf(req.rt.group, req.version),
    kind: req.rt.names.kind,
    subresource,
    now: formatDateRFC3339(new Date()),
    resetFields: resetFields(req, subresource),
    otherVersion: cohabitantVersions(req.rt),
  };
}

// The same arrays every time: the field manager caches the field set of each by identity.
const noResetFields: readonly string[] = [];
const specResetFields: readonly string[] = ['spec'];
const statusResetFields: readonly string[] = ['status'];

/**
 * The fields an endpoint does not write (kube's ResetFieldsStrategy): with a status subresource the main resource
 * leaves `status` alone, and `/status` leaves `spec` alone.
 */
function resetFields(req: WriteRequest, subresource: string): readonly string[] {
  if (subresource === 'status') return specResetFields;
  if (subresource === '' && req.versionDef.subresources?.status) return statusResetFields;
  return noResetFields;
}

/** Create, update and non-apply patch: record what this manager changed in metadata.managedFields. */
export function trackUpdate(req: WriteRequest, live: KubeObject | undefined, next: KubeObject): KubeObject {
  return recordUpdate(live, next, fieldManagerContext(req));
}
