import type { RequestScope } from './request-scope.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { errors } from '../contracts/api-error.js';
import { parseDryRun } from './query-options.js';
import { decodeForWrite } from './schema-stage.js';
import { readRawBody } from './request-body.js';
import { decodeBody } from '../contracts/body-decoding.js';
import type { Codec } from '../contracts/codec.js';
import { decodeTyped } from './typed-decoding.js';
import { checkNameAndNamespace, expectedTypeMeta } from './type-meta.js';
import { respondObject } from './respond.js';
import { admitUpdate, inRequestVersion } from './update-handler.js';
import { admitCreate } from './create-handler.js';
import { prepareForCreate } from '../store/object-meta-lifecycle.js';
import { serverSideApply } from '../ssa/field-manager.js';
import { fieldManagerContext } from './field-tracking.js';
import { parseForce } from './write-options.js';

/** The YAML server-side apply patch media type (so JSON too), the one OpenAPI advertises. */
export const applyPatchType = 'application/apply-patch+yaml';

/**
 * Server-side apply (PATCH in a codec's apply patch media type: application/apply-patch+yaml, …+cbor): the body is
 * the manager's whole intent for the fields it sets, decoded by that codec. It is merged into the live object by the
 * schema's merge model, with conflicts against other managers' fields (409 unless force=true); an object that does
 * not exist yet is created (201).
 */
export async function handleApply(scope: RequestScope, maxBodyBytes: number, codec: Codec): Promise<void> {
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const force = parseForce(scope.query);
  const applied = await readApplyBody(scope, maxBodyBytes, codec);
  const ctx = fieldManagerContext(scope);
  const { namespace, name, subresource } = scope.info;

  if (!subresource && !(await scope.store.find(namespace, name))) {
    const obj = serverSideApply(undefined, applied, ctx, force);
    decodeForWrite(scope, obj);
    prepareForCreate(obj, scope.rt, scope.version, namespace);
    await admitCreate(scope, obj, dryRun);
    return;
  }
  const result = await scope.store.update(
    namespace,
    name,
    inRequestVersion(scope, async (live) => {
      const merged = serverSideApply(live, structuredClone(applied), ctx, force);
      const managedFields = merged.metadata?.managedFields;
      decodeForWrite(scope, merged);
      // The merge already decided the managed fields; keep them through the subresource split.
      return admitUpdate(scope, merged, live, dryRun, (next) => ({ ...next, metadata: { ...next.metadata, managedFields } }));
    }),
    { dryRun },
  );
  return respondObject(scope, 200, result.object);
}

/**
 * The applied configuration: one object without managedFields. Its apiVersion and kind must be the endpoint's, and
 * are not filled in as for other writes: the apply checks them (400 "invalid object type").
 */
async function readApplyBody(scope: RequestScope, maxBodyBytes: number, codec: Codec): Promise<KubeObject> {
  const value = decodeBody(codec, await readRawBody(scope.ctx, maxBodyBytes), expectedTypeMeta(scope));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest('the object provided is unrecognized or malformed: an apply patch must be a YAML or JSON object');
  }
  const obj = value as KubeObject;
  decodeTyped(obj, scope);
  obj.metadata ??= {};
  if (obj.metadata.managedFields != null) throw errors.badRequest('metadata.managedFields must be nil');
  checkNameAndNamespace(obj, scope);
  return obj;
}
