import { ApiError, errors } from '../contracts/api-error.js';

/**
 * The errors of strategic merge patch with the texts of k8s.io/apimachinery's strategicpatch. kube-apiserver answers
 * its sentinel errors (bad retainKeys / primitive list / setElementOrder formats) with 400 and "lists of lists" with a
 * bare 422; its other errors reach the client as 500s with the same message, which kapi answers as 400 BadRequest.
 */
export const smpErrors = {
  badRequest: (message: string): ApiError => errors.badRequest(message),
  primitiveListFormat: (): ApiError => errors.badRequest('invalid patch format of primitive list'),
  retainKeysFormat: (): ApiError => errors.badRequest('invalid patch format of retainKeys'),
  setElementOrderFormat: (): ApiError => errors.badRequest('invalid patch format of setElementOrder list'),
  // kube uses NewGenericServerResponse, which drops the error's own text.
  listOfLists: (): ApiError => new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}),
  noMergeKey: (item: unknown, key: string): ApiError =>
    errors.badRequest(`map: ${goValue(item)} does not contain declared merge key: ${key}`),
  badPatchType: (directive: unknown, patch: unknown): ApiError =>
    errors.badRequest(`unknown patch type: ${goVerbS(directive)} in map: ${goValue(patch)}`),
  badArgType: (expected: 'map' | 'list', actual: unknown): ApiError =>
    errors.badRequest(`expected a ${expected === 'map' ? 'map[string]interface {}' : '[]interface {}'}, but received a ${goType(actual)}`),
};

/** A JSON value as Go's `%v` prints its decoded form (maps with sorted keys), as kube's messages quote values. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goValue(o[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

function goType(v: unknown): string {
  if (v === null) return '%!s(<nil>)';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** Go's `%s` of a decoded JSON value: strings as is, other scalars as `%!s(type=value)`. */
function goVerbS(v: unknown): string {
  if (typeof v === 'string' || (v !== null && typeof v === 'object')) return goValue(v);
  return v === null ? '%!s(<nil>)' : `%!s(${goType(v)}=${String(v)})`;
}
