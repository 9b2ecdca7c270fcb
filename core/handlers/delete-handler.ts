import type { RequestScope, ResourceScope } from './request-scope.js';
import { readDeleteOptions, type DeleteOptions } from './delete-options.js';
import { encodeBody, respondObject, toVersion } from './respond.js';
import { writeAttributes } from './write-attributes.js';
import { addWarnings } from './warnings.js';
import type { KubeObject } from '../contracts/resource-type.js';

/**
 * DELETE of one object. Gone at once → 200 with the object (returnDeletedObject: custom resources) or a Success Status
 * (built-ins);
 * waiting for finalizers → 200 with the object carrying its deletionTimestamp (202 only when the client sent
 * orphanDependents=false, as kube does for compatibility).
 */
export async function handleDelete(scope: RequestScope, maxBodyBytes: number): Promise<void> {
  const opts = await readDeleteOptions(scope.ctx, scope.query, maxBodyBytes, scope.codecs);
  await admitDelete(scope, opts);
  const { object, deleted } = await scope.store.delete(scope.info.namespace, scope.info.name, opts.preconditions, { dryRun: opts.dryRun });
  if (deleted && !scope.rt.returnDeletedObject) {
    respondSuccessStatus(scope, object);
    return;
  }
  return respondObject(scope, !deleted && opts.orphanDependents === false ? 202 : 200, object);
}

/** Runs delete admission against the stored object (in the request's version). */
export async function admitDelete(scope: RequestScope, opts: DeleteOptions, name = scope.info.name, namespace = scope.info.namespace): Promise<void> {
  // kube reads the object into the request's version before deleting: a failing conversion fails the delete.
  const converted = toVersion(await scope.store.get(namespace, name), scope);
  const current = converted instanceof Promise ? await converted : converted;
  await admitDeleteOf(scope, current, opts, name, namespace);
}

/** Runs delete admission against `current`, the object about to be deleted (in the request's version). */
export async function admitDeleteOf(scope: ResourceScope, current: KubeObject, opts: DeleteOptions, name: string, namespace: string): Promise<void> {
  const { dryRun, preconditions, propagationPolicy, gracePeriodSeconds } = opts;
  const attrs = writeAttributes(scope, {
    operation: 'DELETE',
    object: current,
    oldObject: current,
    namespace,
    name,
    subresource: '',
    dryRun,
    options: { propagationPolicy, gracePeriodSeconds, preconditions },
  });
  // Warnings reach the client with a refusal too, as kube's warning recorder sends them.
  await scope.pipeline.admitDelete(attrs).finally(() => addWarnings(scope.ctx, attrs.warnings));
}

function respondSuccessStatus(scope: RequestScope, obj: KubeObject): void {
  const details: Record<string, unknown> = { name: obj.metadata?.name, kind: scope.rt.names.plural, uid: obj.metadata?.uid };
  if (scope.rt.group) details.group = scope.rt.group;
  encodeBody(scope.ctx, scope.negotiated, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
}
