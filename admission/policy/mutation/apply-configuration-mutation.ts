/**
 * Applies what an ApplyConfiguration mutation evaluated to (kube's applyConfigPatcher and ApplyStructuredMergeDiff):
 * the `Object{…}` value, its nested type names checked against their field paths, becomes an apply configuration
 * of the object's apiVersion and kind; it must fit the object's schema (lists where it has lists, maps where it has
 * maps, declared fields), set no atomic value and decode into the object's kind; it is then merged into the object
 * with server-side apply's merge, without recording any field manager.
 */
import type { KubeObject } from '../../../core/contracts/resource-type.js';
import { celToJson, NotJsonError } from '../../../lib/cel/json-native.js';
import { ObjectVal, typeNameMismatches } from '../../../lib/cel/k8s-object-val.js';
import { typeNameOf, type Val } from '../../../lib/cel/values.js';
import type { MergeModel } from '../../../schemas/merge-strategy.js';
import type { JsonObject } from '../../../schemas/structured-merge/json-value.js';
import { mergeObjects } from '../../../schemas/structured-merge/merge-values.js';
import { toFieldSet } from '../../../schemas/structured-merge/to-field-set.js';
import { TypedValueError } from '../../../schemas/structured-merge/typed-errors.js';
import { valueKindErrors } from '../../../schemas/structured-merge/value-kinds.js';
import { atomicPaths } from './atomic-fields.js';
import type { MutationResult } from './mutation-result.js';

/**
 * `model` is the whole object's merge model (ObjectMeta included); `decodeError` is the kind's decoding of the
 * configuration (see MutatedObjectDecoding.applied), its error returned as it is.
 */
export function applyConfigurationMutation(result: Val, object: KubeObject, model: MergeModel, decodeError?: (config: KubeObject) => string | undefined): MutationResult {
  if (!(result instanceof ObjectVal)) return { error: `unsupported return type from ApplyConfiguration expression: ${typeNameOf(result)}` };
  const mismatches = typeNameMismatches(result);
  if (mismatches.length) return { error: `type mismatch: ${mismatches.join('\n')}` };
  let config: JsonObject;
  try {
    config = celToJson(result) as JsonObject;
  } catch (e) {
    if (!(e instanceof NotJsonError)) throw e;
    return { error: 'invalid return type: *dynamic.ObjectVal' };
  }
  config.apiVersion = object.apiVersion;
  config.kind = object.kind;
  const failed = (message: string): MutationResult => ({ error: `error applying patch: ${message}` });
  const notTyped = (e: TypedValueError) => failed(`failed to convert patch object to typed object: ${e.message}`);
  const kindErrors = valueKindErrors(config, model);
  if (kindErrors.length) return notTyped(new TypedValueError(kindErrors));
  try {
    toFieldSet(config, model, true);
  } catch (e) {
    if (!(e instanceof TypedValueError)) throw e;
    return notTyped(e);
  }
  const atomics = atomicPaths(config, model);
  if (atomics.length) return failed(`invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`);
  const error = decodeError?.(config as KubeObject);
  if (error !== undefined) return { error };
  try {
    return { object: mergeObjects(object as JsonObject, config, model) as KubeObject };
  } catch (e) {
    if (!(e instanceof TypedValueError)) throw e;
    return failed(`failed to convert original object to typed object: ${e.message}`);
  }
}
