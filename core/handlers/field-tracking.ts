import type { ResourceScope } from './request-scope.js';
import type { KubeObject } from '../contracts/resource-type.js';
import type { FieldManagerContext } from '../ssa/field-manager.js';
import { recordUpdate } from '../ssa/field-manager.js';
import { apiVersionOf } from '../contracts/resource-type.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { managerName } from './write-options.js';
import { versionModel } from './merge-model.js';

/** The field manager's view of this request: who writes, through which endpoint, under which merge model. */
export function fieldManagerContext(scope: ResourceScope): FieldManagerContext {
  const subresource = (scope.info.subresource || '') as FieldManagerContext['subresource'];
  return {
    model: versionModel(scope), // the engine adds ObjectMeta's model itself
    manager: managerName(scope.query, scope.ctx.get('user-agent')),
    apiVersion: apiVersionOf(scope.rt.group, scope.version),
    kind: scope.rt.names.kind,
    subresource,
    now: formatDateRFC3339(new Date()),
    resetFields: resetFields(scope, subresource),
  };
}

/**
 * The fields an endpoint does not write (kube's ResetFieldsStrategy): with a status subresource the main resource
 * leaves `status` alone, and `/status` leaves `spec` alone.
 */
function resetFields(scope: ResourceScope, subresource: string): string[] {
  if (subresource === 'status') return ['spec'];
  if (subresource === '' && scope.versionDef.subresources?.status) return ['status'];
  return [];
}

/** Create, update and non-apply patch: record what this manager changed in metadata.managedFields. */
export function trackUpdate(scope: ResourceScope, live: KubeObject | undefined, next: KubeObject): KubeObject {
  return recordUpdate(live, next, fieldManagerContext(scope));
}
