/** Compiles and runs one mutation against an object, as a MutatingAdmissionPolicy would. */
import { AdmissionActivation } from '../../admission/policy/cel/admission-activation.js';
import { CompositionEnv } from '../../admission/policy/cel/composition-env.js';
import { dynValue } from '../../lib/cel/dyn-values.js';
import { compileMutation, type PatchType } from '../../admission/policy/mutation/compiled-mutation.js';
import { mutate } from '../../admission/policy/mutation/mutate.js';
import type { MutationResult } from '../../admission/policy/mutation/mutation-result.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { mergeModel } from '../../schemas/merge-strategy.js';

export function runMutation(patchType: PatchType, expression: string, object: KubeObject, schema?: JSONSchemaProps, variables: Record<string, string> = {}): MutationResult {
  const composition = new CompositionEnv(false);
  for (const [name, expr] of Object.entries(variables)) composition.addVariable(name, expr);
  const mutation = patchType === 'JSONPatch' ? { patchType, jsonPatch: { expression } } : { patchType, applyConfiguration: { expression } };
  const compiled = compileMutation(mutation, composition)!;
  const activation = new AdmissionActivation({ object: dynValue(object), oldObject: null, request: dynValue({ operation: 'CREATE' }), namespaceObject: null }, composition.variables);
  return mutate(compiled, activation, object, schema && mergeModel(schema));
}
