import { errors } from '../contracts/api-error.js';
import { goDecode, type GoDecoded, type GoUnknownFields } from '../../lib/go/json-decoding.js';
import type { Codec } from '../contracts/codec.js';
import { objectMetaGoType } from '../../schemas/object-meta-go-type.js';
import { schemaTyped, type KubeObject, type ResourceType } from '../contracts/resource-type.js';
import { patchResultError } from './patch-result-error.js';
import { unknownFieldMessages } from './schema-stage.js';
import type { RequestScope } from './request-scope.js';

/**
 * Decodes an object into its Go type in place, as kube's typed decoding does (nulls become what Go leaves, unknown
 * fields are dropped and returned); or the decoder's error when the object does not fit. Built-in kinds decode whole;
 * a custom resource's metadata is decoded on its own into ObjectMeta, as kube's CRD handler does (so its errors name
 * `ObjectMeta.labels`); its unknown fields are left to the schema stage, which prunes them with the schema's.
 * `keepUnknown`: unknown fields are found but left in place (a server-side apply refuses them itself).
 */
function typedDecode(rt: ResourceType, obj: KubeObject, { keepUnknown = false } = {}): GoDecoded {
  if (schemaTyped(rt)) return obj.metadata != null ? goDecode(obj.metadata, objectMetaGoType, { keepUnknown: true }) : { unknownFields: [] };
  return rt.goType ? goDecode(obj, rt.goType, { keepUnknown }) : { unknownFields: [] };
}

/** The strict decoding errors of a built-in kind's unknown fields, as the body's format reports them (JSON's by default). */
function unknownFieldErrors(found: GoUnknownFields, codec?: Codec): string[] {
  const { unknownFields, firstUnknownIndex } = found;
  if (firstUnknownIndex === undefined) return [];
  return codec?.unknownFieldErrors?.(unknownFields, firstUnknownIndex) ?? unknownFieldMessages(unknownFields);
}

/**
 * A created, updated or applied body decoded before anything reads it: one that does not fit its Go type is kube's
 * 400 "cannot be handled as", and nothing malformed goes further. Returns the strict decoding errors of the unknown
 * fields a built-in kind's Go type dropped, as `codec` (the body's) reports them, for the schema stage to handle per
 * fieldValidation.
 */
export function decodeTyped(obj: KubeObject, scope: Pick<RequestScope, 'rt' | 'version'>, options: { keepUnknown?: boolean; codec?: Codec } = {}): string[] {
  const decoded = typedDecode(scope.rt, obj, options);
  if (decoded.error === undefined) return schemaTyped(scope.rt) ? [] : unknownFieldErrors(decoded, options.codec);
  const { kind } = scope.rt.names;
  throw errors.badRequest(`${kind} in version "${scope.version}" cannot be handled as a ${kind}: ${decoded.error}`);
}

/**
 * A patched object decoded as kube's patcher decodes it: one that does not fit its Go type is a 422 on "patch", with
 * the patched object. Returns the strict decoding errors of the unknown fields dropped, as decodeTyped does.
 */
export function decodePatchedTyped(obj: KubeObject, scope: Pick<RequestScope, 'rt'>): string[] {
  const decoded = typedDecode(scope.rt, obj);
  if (decoded.error !== undefined) throw patchResultError(obj, decoded.error);
  return schemaTyped(scope.rt) ? [] : unknownFieldErrors(decoded);
}
