import type { RequestScope } from './request-scope.js';
import { errors } from '../errors/api-error.js';
import { parseDryRun } from './query-options.js';
import { decodeForWrite } from './schema-stage.js';
import { readRawBody } from './request-body.js';
import { baseMediaType, decodeBody } from '../codec/body-decoder.js';
import { checkNameAndNamespace, checkTypeMeta } from './type-meta.js';
import { respondObject, toVersion } from './respond.js';
import { admitUpdate } from './update-handler.js';
import { applyJsonPatch, parseJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applySimpleStrategicMergePatch } from '../patch/strategic-merge-patch.js';

/** The patch media types served to every resource (server-side apply is not served yet). */
export const patchTypes = ['application/json-patch+json', 'application/merge-patch+json'];
const strategicMergePatch = 'application/strategic-merge-patch+json';

/** Built-in kinds also take strategic merge patches (kube refuses them for custom resources). */
export function patchTypesFor(custom: boolean | undefined): string[] {
  return custom ? patchTypes : [...patchTypes, strategicMergePatch];
}

/** Applies the request's patch to a document; returns the patched JSON object. */
export type PatchFn = (doc: Record<string, unknown>) => Record<string, unknown>;

/** Reads the request's JSON patch or JSON merge patch (415 for other media types, 400 when malformed). */
export async function readPatch(scope: RequestScope, maxBodyBytes: number): Promise<PatchFn> {
  const mediaType = baseMediaType(scope.ctx.get('content-type'));
  const accepted = patchTypesFor(scope.rt.custom);
  if (!accepted.includes(mediaType)) throw errors.unsupportedMediaType(accepted);
  const patch = decodeBody(await readRawBody(scope.ctx, maxBodyBytes), 'application/json');
  const operations = mediaType === 'application/json-patch+json' ? parseJsonPatch(patch) : undefined;
  if (!operations && (patch === null || typeof patch !== 'object' || Array.isArray(patch))) {
    throw errors.badRequest('the patch provided is unrecognized or malformed: a merge patch must be a JSON object');
  }
  const merge = (doc: unknown) => {
    if (mediaType !== strategicMergePatch) return applyMergePatch(doc, patch);
    const patched = applySimpleStrategicMergePatch(doc, patch as Record<string, unknown>);
    // Directives and merge-strategy lists need the full strategic merge engine, which is not there yet.
    if (patched === undefined) throw errors.unsupportedMediaType(patchTypes);
    return patched;
  };
  return (doc) => {
    const patched = operations ? applyJsonPatch(doc, operations) : merge(doc);
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
      throw errors.badRequest('the patched object is not a JSON object');
    }
    return patched as Record<string, unknown>;
  };
}

/** PATCH of one object (or its status) with a JSON patch or a JSON merge patch. */
export async function handlePatch(scope: RequestScope, maxBodyBytes: number): Promise<void> {
  const applyPatch = await readPatch(scope, maxBodyBytes);
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const result = await scope.store.update(
    scope.info.namespace,
    scope.info.name,
    async (current) => {
      const obj = checkTypeMeta(applyPatch(toVersion(structuredClone(current), scope)), scope);
      checkNameAndNamespace(obj, scope);
      decodeForWrite(scope, obj);
      return admitUpdate(scope, obj, current, dryRun);
    },
    { dryRun },
  );
  respondObject(scope, 200, result.object);
}
