/**
 * One mutation of a MutatingAdmissionPolicy compiled once (kube's compilePolicy patchers): its expression compiled
 * in the policy's composition environment with the JSONPatch and Object types, checked to return what its patch
 * type applies — `Object` for ApplyConfiguration, `list(JSONPatch)` for JSONPatch. Compile errors are kept and
 * reported when the mutation runs, as kube does; they are kube's creation-time errors too.
 */
import { JSON_PATCH_TYPE } from '../../../lib/cel/k8s-jsonpatch.js';
import { dynamicObjectType, OBJECT_TYPE_NAME } from '../../../lib/cel/k8s-object-val.js';
import { T } from '../../../lib/cel/types.js';
import type { PatchType } from '../../../builtin/admissionregistration/mutating-admission-policy-validation.js';
import type { CompiledExpression } from '../cel/compiled-expression.js';
import type { CompositionEnv } from '../cel/composition-env.js';

export type { PatchType };

/** A policy's `spec.mutations[i]` as the API serves it. */
export interface Mutation {
  patchType?: string;
  applyConfiguration?: { expression?: string };
  jsonPatch?: { expression?: string };
}

export interface CompiledMutation {
  patchType: PatchType;
  compiled: CompiledExpression;
}

const RETURN_TYPES = {
  ApplyConfiguration: dynamicObjectType(OBJECT_TYPE_NAME).type,
  JSONPatch: T.list(JSON_PATCH_TYPE.type),
};

/** The compiled mutation, or undefined when its patch type is unknown or the matching expression is missing. */
export function compileMutation(mutation: Mutation, composition: CompositionEnv): CompiledMutation | undefined {
  const patchType = mutation.patchType;
  if (patchType !== 'ApplyConfiguration' && patchType !== 'JSONPatch') return undefined;
  const expression = patchType === 'ApplyConfiguration' ? mutation.applyConfiguration?.expression : mutation.jsonPatch?.expression;
  if (expression === undefined) return undefined;
  return { patchType, compiled: compilePatchExpression(patchType, expression, composition) };
}

/** A mutation's expression compiled for its patch type, its result type checked (kube's ReturnTypes of the patch type). */
export function compilePatchExpression(patchType: PatchType, expression: string, composition: CompositionEnv): CompiledExpression {
  return composition.compileMutation(expression, RETURN_TYPES[patchType]);
}
