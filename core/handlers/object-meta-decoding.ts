import { errors, type StatusCause } from '../errors/api-error.js';
import { goJSON, kubeBadValue } from '../../schemas/go-values.js';
import { objectMetaDecodeError } from '../validation/object-meta-decoding.js';
import type { RequestScope } from './request-scope.js';

type Scope = Pick<RequestScope, 'rt' | 'version'>;

/**
 * Go's decode error for the body's metadata, as kube reports it: typed kinds decode metadata with the object
 * (`json: … Go struct field ObjectMeta.metadata.labels …`); custom resources decode it alone and name it as an invalid
 * `metadata` value.
 */
function metadataError(obj: Record<string, unknown>, scope: Scope): string | undefined {
  if (obj.metadata === undefined) return undefined;
  if (!scope.rt.custom) return objectMetaDecodeError(obj.metadata, { kindStruct: scope.rt.names.kind });
  const error = objectMetaDecodeError(obj.metadata, 'standalone');
  return error && `metadata: Invalid value: ${kubeBadValue(obj.metadata)}: ${error}`;
}

/** A created, updated or applied object whose metadata does not decode: kube's 400 "cannot be handled as". */
export function decodeObjectMeta(obj: Record<string, unknown>, scope: Scope): void {
  const error = metadataError(obj, scope);
  if (!error) return;
  const { kind } = scope.rt.names;
  throw errors.badRequest(`${kind} in version "${scope.version}" cannot be handled as a ${kind}: ${error}`);
}

/** A patched object whose metadata does not decode: kube's patcher answers 422 Invalid on "patch", with the result. */
export function decodePatchedObjectMeta(obj: Record<string, unknown>, scope: Scope): void {
  const error = metadataError(obj, scope);
  if (!error) return;
  const cause: StatusCause = { reason: 'FieldValueInvalid', message: `Invalid value: ${kubeBadValue(goJSON(obj))}: ${error}`, field: 'patch' };
  throw errors.invalid({ group: '', resource: '', kind: '', name: '' }, [cause]);
}
