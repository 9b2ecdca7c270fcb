/**
 * What Kubernetes adds to the CEL environment of mutation expressions (the admission compiler's HasPatchTypes): the
 * `JSONPatch` type, the `Object…` types with dyn fields (mutation.DynamicTypeResolver), and
 * `jsonpatch.escapeKey`. Type checking against a kind's schema declares schema-typed Object types instead.
 */
import type { Library } from './env.js';
import { JSON_PATCH_TYPE, JSON_PATCH_TYPE_NAME, registerKubernetesJsonPatch } from './k8s-jsonpatch.js';
import { dynamicObjectType, isObjectTypeName } from './k8s-object-val.js';
import type { StructType, StructTypeResolver } from './struct-types.js';

export function dynamicPatchTypes(name: string): StructType | undefined {
  if (name === JSON_PATCH_TYPE_NAME) return JSON_PATCH_TYPE;
  return isObjectTypeName(name) ? dynamicObjectType(name) : undefined;
}

/** The patch types library; `types` resolves JSONPatch and the Object types (kube's dynamic ones by default). */
export function kubernetesPatchTypes(types: StructTypeResolver = dynamicPatchTypes): Library {
  return (env) => {
    env.declareStructs(types);
    registerKubernetesJsonPatch(env.functions);
  };
}
