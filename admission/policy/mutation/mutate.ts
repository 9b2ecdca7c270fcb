/**
 * Runs one compiled mutation against the object being admitted (kube's dispatchOne → Patcher.Patch): the
 * expression is evaluated under a fresh runtime cost budget, as every mutation is, then its result is applied per
 * the patch type and the object it leaves decoded into its kind. Errors carry kube's texts; the caller applies the
 * policy's failurePolicy to them.
 */
import type { KubeObject } from '../../../core/contracts/resource-type.js';
import type { MergeModel } from '../../../schemas/merge-strategy.js';
import { DEDUCED, objectModel } from '../../../schemas/structured-merge/type-model.js';
import type { AdmissionActivation } from '../cel/admission-activation.js';
import { evaluateExpressions, RUNTIME_CEL_COST_BUDGET } from '../cel/expression-evaluation.js';
import { applyConfigurationMutation } from './apply-configuration-mutation.js';
import type { CompiledMutation } from './compiled-mutation.js';
import { applyJsonPatchMutation } from './json-patch-mutation.js';
import type { MutationResult } from './mutation-result.js';
import type { MutatedObjectDecoding } from '../../mutated-object-decoding.js';

/**
 * `activation` must resolve `object` to `object` (the object as the previous mutations left it). `model` is the
 * merge model of the object's version schema; without one the object merges as structured-merge-diff's deduced type.
 * `decoding` is how the object's kind decodes (without it, the result is not decoded).
 * `object` is not modified; an ApplyConfiguration's result shares the subtrees it does not change with it.
 */
export function mutate(mutation: CompiledMutation, activation: AdmissionActivation, object: KubeObject, model?: MergeModel, decoding?: MutatedObjectDecoding): MutationResult {
  const { compiled } = mutation;
  if (compiled.error) return { error: compiled.error.detail };
  const outcome = evaluateExpressions([compiled], activation, RUNTIME_CEL_COST_BUDGET);
  if ('budgetError' in outcome) return { error: outcome.budgetError };
  const [r] = outcome.results;
  if (r.error !== undefined) return { error: r.error };
  const patched = mutation.patchType === 'JSONPatch';
  if (!patched) return applyConfigurationMutation(r.value!, object, objectModel(model ?? DEDUCED), decoding?.applied);
  const result = applyJsonPatchMutation(r.value!, object);
  if (!decoding || result.object === undefined || result.object === object) return result;
  const error = decoding.patched(result.object);
  return error === undefined ? result : { error };
}
