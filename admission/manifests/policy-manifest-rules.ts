import type { KubeObject } from '../../core/contracts/resource-type.js';
import { staticManifestSuffix } from '../../builtin/admissionregistration/static-manifest-names.js';
import type { LoadedManifests } from './static-manifest-plugin.js';

/*
 * kube's manifest rules for admission policies and their bindings (apiserver's policy manifest loader): objects from
 * files live apart from the API, so they may not reference what the API holds.
 */

interface PolicyLike extends KubeObject {
  spec?: { paramKind?: unknown; policyName?: string; paramRef?: unknown };
}

/** A policy from files has no params (kube refuses spec.paramKind). */
export function policyRestriction(obj: KubeObject): string | undefined {
  if ((obj as PolicyLike).spec?.paramKind == null) return undefined;
  return `${String(obj.kind)} "${obj.metadata?.name ?? ''}": spec.paramKind is not supported for static manifests`;
}

/** A binding from files names a static policy (reserved suffix) and no params. */
export function bindingRestriction(obj: KubeObject): string | undefined {
  const name = obj.metadata?.name ?? '';
  const { policyName = '', paramRef } = (obj as PolicyLike).spec ?? {};
  if (!policyName) return `binding "${name}" must reference a policy (spec.policyName)`;
  if (!policyName.endsWith(staticManifestSuffix)) return `binding "${name}": spec.policyName "${policyName}" must end with "${staticManifestSuffix}"`;
  if (paramRef != null) return `binding "${name}": spec.paramRef is not supported for static manifests`;
  return undefined;
}

/** Every binding of `bindingKind` in the set binds a policy of `policyKind` of the same set. */
export function bindingsReferToLoadedPolicies(policyKind: string, bindingKind: string): (objects: LoadedManifests) => string | undefined {
  return (objects) => {
    const policies = objects.get(policyKind);
    for (const [name, binding] of objects.get(bindingKind) ?? []) {
      const policyName = (binding as PolicyLike).spec?.policyName ?? '';
      if (!policies?.has(policyName)) return `binding "${name}" references policy "${policyName}" which does not exist in the manifest directory`;
    }
    return undefined;
  };
}
