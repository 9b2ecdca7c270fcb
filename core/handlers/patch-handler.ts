import type { ResourceScope } from './request-scope.js';
import { errors } from '../contracts/api-error.js';
import { patchResultError } from './patch-result-error.js';
import { goJsonSyntaxError, unmarshalValueError } from '../../lib/go/json-errors.js';
import { parseDryRun, parseFieldValidation } from './query-options.js';
import { decodeForWrite } from './schema-stage.js';
import { readRawBody } from './request-body.js';
import { baseMediaType, decodeBody } from '../contracts/body-decoding.js';
import { decodePatchedTyped } from './typed-decoding.js';
import { checkNameAndNamespace, checkTypeMeta, expectedTypeMeta } from './type-meta.js';
import { respondObject } from './respond.js';
import { writeRequestOf } from './write-request-of.js';
import { applyJsonPatch, parseJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { modelOf } from './merge-model.js';
import { validateWriteOptions } from './write-options.js';
import { applyPatchType, handleApply } from './apply-handler.js';
import type { CodecSet } from '../codec/codec-set.js';
import { schemaTyped, type KubeObject, type ResourceType } from '../contracts/resource-type.js';

const jsonPatch = 'application/json-patch+json';
const mergePatch = 'application/merge-patch+json';
const strategicMergePatch = 'application/strategic-merge-patch+json';

/** The JSON patch types kapi serves for every resource (strategic merge patch for custom resources too). */
const jsonPatchTypes = [jsonPatch, mergePatch, strategicMergePatch];

/** Every patch type served: the JSON ones, then server-side apply in each codec's apply patch media type, as kube lists them. */
function servedPatchTypes(codecs: CodecSet): string[] {
  return [...jsonPatchTypes, ...codecs.applyPatchMediaTypes];
}

/**
 * The patch types OpenAPI advertises, as kube-apiserver does: no strategic merge patch for kinds typed by their schema
 * (custom resources; kubectl would otherwise compute its client-side apply patches from the schema; kapi still accepts
 * them when sent).
 */
export function patchTypesFor(rt: ResourceType): string[] {
  return schemaTyped(rt) ? [jsonPatch, mergePatch, applyPatchType] : [jsonPatch, mergePatch, strategicMergePatch, applyPatchType];
}


/**
 * The patch document. One that is not JSON is kube's 400 for its patch type: Go's syntax error as the patch decoder
 * reports it (a JSON merge patch under fieldValidation Warn or Strict is decoded strictly first: `error decoding
 * patch: …`; under Ignore it is json-patch's `Invalid JSON Patch`).
 */
function decodePatch(scope: ResourceScope, raw: Buffer, mediaType: string): unknown {
  try {
    return decodeBody(scope.codecs.json, raw, expectedTypeMeta(scope));
  } catch (err) {
    const syntax = goJsonSyntaxError(raw.toString('utf8'));
    if (syntax === undefined) throw err; // JSON, refused for its structure (nesting, __proto__)
    if (mediaType !== mergePatch) throw errors.badRequest(syntax);
    throw errors.badRequest(parseFieldValidation(scope.query) === 'Ignore' ? 'Invalid JSON Patch' : `error decoding patch: ${syntax}`);
  }
}

/** Applies the request's patch to a document; returns the patched JSON object. */
export type PatchFn = (doc: Record<string, unknown>) => Record<string, unknown>;

/** Reads the request's JSON patch or JSON merge patch (415 for other media types, 400 when malformed). */
export async function readPatch(scope: ResourceScope, maxBodyBytes: number): Promise<PatchFn> {
  const mediaType = baseMediaType(scope.ctx.get('content-type'));
  if (!jsonPatchTypes.includes(mediaType)) throw errors.unsupportedMediaType(jsonPatchTypes); // apply has its own handler
  const patch = decodePatch(scope, await readRawBody(scope.ctx, maxBodyBytes), mediaType);
  const operations = mediaType === 'application/json-patch+json' ? parseJsonPatch(patch) : undefined;
  if (mediaType === mergePatch && patch !== null && (typeof patch !== 'object' || Array.isArray(patch)) && parseFieldValidation(scope.query) !== 'Ignore') {
    // under Warn and Strict kube first decodes a merge patch strictly, into a map
    throw errors.badRequest(`error decoding patch: ${unmarshalValueError(patch, 'map[string]interface {}')}`);
  }
  // A JSON merge patch that is no JSON document at all is evanphx/json-patch's ErrBadJSONPatch in kube.
  if (mediaType === mergePatch && (patch === null || typeof patch !== 'object')) throw errors.badRequest('Invalid JSON Patch');
  if (mediaType === strategicMergePatch && (patch === null || typeof patch !== 'object' || Array.isArray(patch))) {
    throw errors.badRequest('the patch provided is unrecognized or malformed: a strategic merge patch must be a JSON object');
  }
  const merge = (doc: Record<string, unknown>) =>
    mediaType === strategicMergePatch ? applyStrategicMergePatch(doc, patch as Record<string, unknown>, modelOf(scope)) : applyMergePatch(doc, patch);
  return (doc) => {
    const patched = operations ? applyJsonPatch(doc, operations) : merge(doc);
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
      // A merge patch that is a list replaces the whole document, which then cannot decode: kube's 422 on "patch".
      throw patchResultError(patched, unmarshalValueError(patched, 'map[string]interface {}'));
    }
    return patched as Record<string, unknown>;
  };
}

/**
 * The patched object for `live` (the stored object in the request's version), decoded and checked as kube's patcher
 * does before the update's write stages run.
 */
export function patchedObject(scope: ResourceScope, applyPatch: PatchFn, live: KubeObject): KubeObject {
  const patched = applyPatch(structuredClone(live));
  // Under Strict, unknown fields are refused with the patched object as it was before decoding dropped them.
  const undecoded = parseFieldValidation(scope.query) === 'Strict' ? structuredClone(patched) : undefined;
  const unknown = decodePatchedTyped(patched, scope);
  const obj = checkTypeMeta(patched, scope);
  checkNameAndNamespace(obj, scope);
  decodeForWrite(scope, obj, { unknown }, (message) => patchResultError(undecoded, message));
  return obj;
}

/** PATCH of one object (or its status): server-side apply, or a JSON / merge / strategic merge patch. */
export async function handlePatch(scope: ResourceScope, maxBodyBytes: number): Promise<void> {
  const mediaType = baseMediaType(scope.ctx.get('content-type'));
  const applyCodec = scope.codecs.forApplyPatch(mediaType);
  if (!applyCodec && !jsonPatchTypes.includes(mediaType)) throw errors.unsupportedMediaType(servedPatchTypes(scope.codecs));
  validateWriteOptions(scope.query, 'PatchOptions', applyCodec !== undefined);
  if (applyCodec) return handleApply(scope, maxBodyBytes, applyCodec);
  const applyPatch = await readPatch(scope, maxBodyBytes);
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const result = await scope.writer.update(writeRequestOf(scope, dryRun), (live) => patchedObject(scope, applyPatch, live));
  return respondObject(scope, 200, result.object);
}
