import fjp from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { ApiError, errors } from '../contracts/api-error.js';

/** Validates a RFC 6902 patch document; malformed → 400 as kube answers. */
export function parseJsonPatch(value: unknown): Operation[] {
  if (!Array.isArray(value)) throw errors.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  const err = fjp.validate(value as Operation[]);
  if (err) throw errors.badRequest(`the patch provided is unrecognized or malformed: ${err.message.split('\n')[0]}`);
  return value as Operation[];
}

/** Applies a RFC 6902 patch; a failing operation (e.g. `test`) is 422 as kube answers. */
export function applyJsonPatch(doc: unknown, ops: Operation[]): unknown {
  try {
    return fjp.applyPatch(doc, ops, true, true, true).newDocument;
  } catch {
    // kube answers a generic 422 without causes (NewGenericServerResponse).
    throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  }
}
