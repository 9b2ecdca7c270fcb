import type { ResourceScope } from './request-scope.js';
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
import { serverSideApply } from '../ssa/field-manager.js';
import { fieldManagerContext } from '../rest/field-tracking.js';
import { writeRequestOf } from './write-request-of.js';
import type { FieldTracker } from '../rest/write-stages.js';
import { parseForce } from './write-options.js';

/** The apply already recorded the managed fields of the object it creates. */
const keepTracked: FieldTracker = (next) => next;

/** The YAML server-side apply patch media type (so JSON too), the one OpenAPI advertises. */
export const applyPatchType = 'application/apply-patch+yaml';

/**
 * Server-side apply (PATCH in a codec's apply patch media type: application/apply-patch+yaml, …+cbor): the body is
 * the manager's whole intent for the fields it sets, decoded by that codec. It is merged into the live object by the
 * schema's merge model, with conflicts against other managers' fields (409 unless force=true); an object that does
 * not exist yet is created (201).
 */
export async function handleApply(scope: ResourceScope, maxBodyBytes: number, codec: Codec): Promise<void> {
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const force = parseForce(scope.query);
  const applied = await readApplyBody(scope, maxBodyBytes, codec);
  const req = writeRequestOf(scope, dryRun);
  const ctx = fieldManagerContext(req);
  const { namespace, name, subresource } = scope.info;

  if (!subresource && !(await scope.writer.exists(req))) {
    const obj = serverSideApply(undefined, applied, ctx, force);
    decodeForWrite(scope, obj, { unknown: decodeTyped(obj, scope) });
    return respondObject(scope, 201, await scope.writer.create(req, obj, keepTracked));
  }
  let managedFields: unknown[] | undefined;
  const result = await scope.writer.update(
    req,
    (live) => {
      const merged = serverSideApply(live, structuredClone(applied), ctx, force);
      managedFields = merged.metadata?.managedFields;
      decodeForWrite(scope, merged, { unknown: decodeTyped(merged, scope) });
      return merged;
    },
    // The merge already decided the managed fields; keep them through the subresource split.
    { track: (next) => ({ ...next, metadata: { ...next.metadata, managedFields } }) },
  );
  return respondObject(scope, 200, result.object);
}

/**
 * The applied configuration: one object without managedFields. Its apiVersion and kind must be the endpoint's, and
 * are not filled in as for other writes: the apply checks them (400 "invalid object type").
 */
async function readApplyBody(scope: ResourceScope, maxBodyBytes: number, codec: Codec): Promise<KubeObject> {
  const value = decodeBody(codec, await readRawBody(scope.ctx, maxBodyBytes), expectedTypeMeta(scope));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest('the object provided is unrecognized or malformed: an apply patch must be a YAML or JSON object');
  }
  const obj = value as KubeObject;
  // Unknown fields stay: the apply refuses them itself (`field not declared in schema`), as kube's field manager does.
  // The merged object is then decoded like any written object, so nothing its Go type lacks is ever stored.
  decodeTyped(obj, scope, { keepUnknown: true });
  obj.metadata ??= {};
  if (obj.metadata.managedFields != null) throw errors.badRequest('metadata.managedFields must be nil');
  checkNameAndNamespace(obj, scope);
  return obj;
}
