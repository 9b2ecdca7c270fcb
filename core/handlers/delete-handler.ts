import type { ResourceScope } from './request-scope.js';
import { readDeleteOptions, deleteAdmissionOptions, deletePropagation } from './delete-options.js';
import { encodeBody, respondObject } from './respond.js';
import { writeRequestOf } from './write-request-of.js';
import type { KubeObject } from '../contracts/resource-type.js';

/**
 * DELETE of one object. Gone at once → 200 with the object (returnDeletedObject: custom resources) or a Success Status
 * (built-ins);
 * waiting for finalizers → 200 with the object carrying its deletionTimestamp (202 only when the client sent
 * orphanDependents=false, as kube does for compatibility).
 */
export async function handleDelete(scope: ResourceScope, maxBodyBytes: number): Promise<void> {
  const opts = await readDeleteOptions(scope.ctx, scope.query, maxBodyBytes, scope.codecs);
  const req = writeRequestOf(scope, opts.dryRun);
  const { object, deleted } = await scope.writer.delete(req, {
    preconditions: opts.preconditions,
    admissionOptions: deleteAdmissionOptions(opts),
    propagation: deletePropagation(opts),
  });
  if (deleted && !scope.rt.returnDeletedObject && !scope.rt.storage) {
    respondSuccessStatus(scope, object);
    return;
  }
  return respondObject(scope, !deleted && opts.orphanDependents === false ? 202 : 200, object);
}

function respondSuccessStatus(scope: ResourceScope, obj: KubeObject): void {
  const details: Record<string, unknown> = { name: obj.metadata?.name, kind: scope.rt.names.plural, uid: obj.metadata?.uid };
  if (scope.rt.group) details.group = scope.rt.group;
  encodeBody(scope.ctx, scope.negotiated, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
}
