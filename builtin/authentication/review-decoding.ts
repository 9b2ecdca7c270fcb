import { errors } from '../../core/contracts/api-error.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { goDecode, type GoStructType } from '../../lib/go/json-decoding.js';

/** A review's body decoded into kube's Go type (a copy): a value of the wrong type is kube's 400. */
export function decodeReview<T>(body: KubeObject, goType: GoStructType, kind: string): KubeObject & T {
  const review = structuredClone(body);
  const { error } = goDecode(review, goType);
  if (error) throw errors.badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${error}`);
  return review as KubeObject & T;
}
