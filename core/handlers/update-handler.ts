import type { RequestScope, ResourceScope } from './request-scope.js';
import { errors } from '../contracts/api-error.js';
import { parseDryRun } from './query-options.js';
import { decodeForWrite } from './schema-stage.js';
import { readObjectBody } from './request-body.js';
import { decodeTyped } from './typed-decoding.js';
import { checkNameAndNamespace, checkTypeMeta, expectedTypeMeta } from './type-meta.js';
import { prepareForUpdate } from '../store/object-meta-lifecycle.js';
import { respondObject, toVersion } from './respond.js';
import type { UpdateFn } from '../store/resource-store.js';
import { toStorageVersion } from '../conversion/versioned-objects.js';
import { addWarnings } from './warnings.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { trackUpdate } from './field-tracking.js';
import { keepTimesOfNoopWrite } from '../ssa/noop-timestamps.js';
import { validateWriteOptions } from './write-options.js';
import { writeAttributes } from './write-attributes.js';

/** Sets metadata.managedFields of the object about to be stored (`live`: the stored object in the request's version). */
export type FieldTracker = (next: KubeObject, live: KubeObject) => KubeObject;

/**
 * The store's update function for a write through this request: `update` receives the stored object in the
 * request's version (the write's oldObject) and returns the desired object, which is stored in the storage version.
 * Conversions that fail (a conversion webhook) fail the write before anything is stored.
 */
export function inRequestVersion(scope: RequestScope, update: (live: KubeObject) => Promise<KubeObject>): UpdateFn {
  return async (current) => {
    const converted = toVersion(current, scope);
    const next = await update(converted instanceof Promise ? await converted : converted);
    return toStorageVersion(scope.rt, next);
  };
}

/**
 * Runs the write pipeline for an update of `live` (the stored object in the request's version) into `desired` and
 * returns the object to store. Managed fields are recorded as an Update by the request's manager unless the caller
 * tracks them itself (apply).
 */
export async function admitUpdate(
  scope: ResourceScope,
  desired: KubeObject,
  live: KubeObject,
  dryRun: boolean,
  track: FieldTracker = (next, old) => trackUpdate(scope, old, next),
): Promise<KubeObject> {
  // An unconditional update (allowed for some built-ins) is an update of whatever is stored now.
  if (scope.rt.allowUnconditionalUpdate && desired.metadata && !desired.metadata.resourceVersion) {
    desired.metadata.resourceVersion = live.metadata?.resourceVersion;
  }
  const next = track(prepareForUpdate(desired, live, scope.rt, scope.version, scope.info.subresource), live);
  const attrs = writeAttributes(scope, {
    operation: 'UPDATE',
    object: next,
    oldObject: live,
    namespace: scope.info.namespace,
    name: scope.info.name,
    subresource: scope.info.subresource,
    dryRun,
  });
  // Warnings reach the client with a refusal too, as kube's warning recorder sends them.
  await scope.pipeline.run(attrs).finally(() => addWarnings(scope.ctx, attrs.warnings));
  // A write that changes nothing but managedFields times keeps the stored times: storage sees a no-op.
  return keepTimesOfNoopWrite(attrs.object, live);
}

/** PUT of one object (or its status). */
export async function handleUpdate(scope: RequestScope, maxBodyBytes: number): Promise<void> {
  const { obj, dryRun } = await readUpdate(scope, maxBodyBytes);
  const update = inRequestVersion(scope, (live) => admitUpdate(scope, structuredClone(obj), live, dryRun));
  // A body that names a UID is an update of that object only, not of one recreated under its name (409).
  const result = await scope.store.update(scope.info.namespace, scope.info.name, update, { dryRun, uid: obj.metadata?.uid });
  return respondObject(scope, 200, result.object);
}

/** Reads and decodes the body of a PUT and checks it against the URL (a resourceVersion is required unless allowed). */
export async function readUpdate(scope: ResourceScope, maxBodyBytes: number): Promise<{ obj: KubeObject; dryRun: boolean }> {
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  validateWriteOptions(scope.query, 'UpdateOptions');
  const body = await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, expectedTypeMeta(scope));
  decodeTyped(body.object, scope);
  const obj = checkTypeMeta(body.object, scope);
  checkNameAndNamespace(obj, scope);
  decodeForWrite(scope, obj, body.duplicates);
  if (!scope.rt.allowUnconditionalUpdate && !obj.metadata?.resourceVersion) {
    throw errors.invalid(
      // kube names the resource here (widgets.example.com), not the kind.
      { group: scope.rt.group, resource: scope.rt.names.plural, kind: scope.rt.names.plural, name: scope.info.name },
      // kube prints the empty value as Go's %#v of a zero uint64.
      [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
    );
  }
  return { obj, dryRun };
}
