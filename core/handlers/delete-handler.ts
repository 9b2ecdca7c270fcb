import type { RequestScope } from './request-scope.js';
import { readDeleteOptions } from './delete-options.js';
import { encodeBody, respondObject } from './respond.js';
import type { KubeObject } from '../registry/resource-type.js';

/**
 * DELETE of one object. Gone at once → 200 with the object (custom resources) or a Success Status (built-ins);
 * waiting for finalizers → 200 with the object carrying its deletionTimestamp (202 only when the client sent
 * orphanDependents=false, as kube does for compatibility).
 */
export async function handleDelete(scope: RequestScope, maxBodyBytes: number): Promise<void> {
  const opts = await readDeleteOptions(scope.ctx, scope.query, maxBodyBytes);
  await admitDelete(scope, opts.dryRun);
  const { object, deleted } = await scope.store.delete(scope.info.namespace, scope.info.name, opts.preconditions, { dryRun: opts.dryRun });
  if (deleted && !scope.rt.custom) {
    respondSuccessStatus(scope, object);
    return;
  }
  respondObject(scope, !deleted && opts.orphanDependents === false ? 202 : 200, object);
}

/** Runs the delete admission gates against the stored object. */
export async function admitDelete(scope: RequestScope, dryRun: boolean, name = scope.info.name, namespace = scope.info.namespace): Promise<void> {
  const current = await scope.store.get(namespace, name);
  await scope.pipeline.admitDelete({
    operation: 'DELETE',
    rt: scope.rt,
    version: scope.version,
    subresource: '',
    namespace,
    name,
    object: current,
    oldObject: current,
    user: scope.user,
    dryRun,
    warnings: [],
  });
}

function respondSuccessStatus(scope: RequestScope, obj: KubeObject): void {
  const details: Record<string, unknown> = { name: obj.metadata?.name, kind: scope.rt.names.plural, uid: obj.metadata?.uid };
  if (scope.rt.group) details.group = scope.rt.group;
  encodeBody(scope.ctx, scope.negotiated, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
}
