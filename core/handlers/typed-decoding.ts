import { errors } from '../contracts/api-error.js';
import { goDecode } from '../../lib/go/json-decoding.js';
import { objectMetaGoType } from '../../schemas/object-meta-go-type.js';
import { schemaTyped, type KubeObject, type ResourceType } from '../contracts/resource-type.js';
import { patchResultError } from './patch-result-error.js';
import type { RequestScope } from './request-scope.js';

/**
 * Decodes an object into its Go type in place, as kube's typed decoding does (nulls become what Go leaves); returns
 * the decoder's error instead when the object does not fit. Built-in kinds decode whole; a custom resource's metadata
 * is decoded on its own into ObjectMeta, as kube's CRD handler does (so its errors name `ObjectMeta.labels`).
 */
export function typedDecodeError(rt: ResourceType, obj: KubeObject): string | undefined {
  if (schemaTyped(rt)) return obj.metadata !== undefined ? goDecode(obj.metadata, objectMetaGoType) : undefined;
  return rt.goType ? goDecode(obj, rt.goType) : undefined;
}

/**
 * A created, updated or applied body decoded before anything reads it: one that does not fit its Go type is kube's
 * 400 "cannot be handled as", and nothing malformed goes further.
 */
export function decodeTyped(obj: KubeObject, scope: Pick<RequestScope, 'rt' | 'version'>): void {
  const error = typedDecodeError(scope.rt, obj);
  if (!error) return;
  const { kind } = scope.rt.names;
  throw errors.badRequest(`${kind} in version "${scope.version}" cannot be handled as a ${kind}: ${error}`);
}

/** A patched object that does not fit its Go type: kube's patcher answers 422 on "patch", with the patched object. */
export function decodePatchedTyped(obj: KubeObject, scope: Pick<RequestScope, 'rt'>): void {
  const error = typedDecodeError(scope.rt, obj);
  if (error) throw patchResultError(obj, error);
}
