/**
 * What Kubernetes adds to the CEL environment of mutation expressions (the admission compiler's HasPatchTypes): the
 * `JSONPatch` type, the `Object…` types with dyn fields (mutation.DynamicTypeResolver), and
 * `jsonpatch.escapeKey`.
 */
import type { Library } from './env.js';
import { JSON_PATCH_TYPE, JSON_PATCH_TYPE_NAME, registerKubernetesJsonPatch } from './k8s-jsonpatch.js';
import { dynamicObjectType, isObjectTypeName } from './k8s-object-val.js';
import type { StructType } from './struct-types.js';

export function dynamicPatchTypes(name: string): StructType | undefined {
  if (name === JSON_PATCH_TYPE_NAME) return JSON_PATCH_TYPE;
  return isObjectTypeName(name) ? dynamicObjectType(name) : undefined;
}

export const kubernetesPatchTypes: Library = (env) => {
  env.declareStructs(dynamicPatchTypes);
  registerKubernetesJsonPatch(env.functions);
};
