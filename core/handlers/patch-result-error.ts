import { errors, fieldErrors, type ApiError } from '../contracts/api-error.js';

/**
 * kube's answer to a patch whose result cannot be decoded into the resource's type (its patcher's DecodeInto failing):
 * a 422 without kind or name, its one cause on the field `patch` carrying the patched JSON and the decoder's error.
 */
export function patchResultError(patched: unknown, detail: string): ApiError {
  return errors.invalid({ group: '', resource: '', kind: '', name: '' }, [fieldErrors.invalid('patch', JSON.stringify(patched), detail)]);
}
