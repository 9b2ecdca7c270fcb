/**
 * The params one binding evaluates its policy with (kube's CollectParams): none needed → one evaluation without
 * params; paramRef.name → that object (in paramRef.namespace, else the request's namespace, for namespaced
 * kinds); paramRef.selector → every matching object. Nothing found with parameterNotFoundAction Deny is an error.
 * Errors are binding configuration errors, with kube's texts.
 */
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { ParamRef } from '../../builtin/admissionregistration/validating-admission-policy-types.js';
import { admissionSelector } from '../matching/selectors.js';
import type { ParamSource } from './param-informers.js';

export type CollectedParams = { params: (KubeObject | null)[] } | { error: string };

/** Go's generated String() of a *v1.ParamKind. */
export function paramKindString(pk: { apiVersion: string; kind: string }): string {
  return `&ParamKind{APIVersion:${pk.apiVersion},Kind:${pk.kind},}`;
}

const NO_PARAMS: CollectedParams = { params: [null] };

export async function collectParams(
  paramKind: { apiVersion: string; kind: string } | undefined,
  source: ParamSource | undefined,
  paramRef: ParamRef | undefined,
  requestNamespace: string,
): Promise<CollectedParams> {
  if (!paramKind || !paramRef) return NO_PARAMS;
  if (!source) return { error: `paramKind kind \`${paramKindString(paramKind)}\` not known` };
  const namespaced = source.rt.scope === 'Namespaced';
  let namespace = '';
  if (namespaced) {
    namespace = paramRef.namespace || requestNamespace;
    if (!namespace) return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  }
  const objects = await source.objects();
  if (!objects) return { error: `paramKind kind \`${paramKindString(paramKind)}\` not yet synced to use for admission` };
  if (paramRef.namespace && !namespaced) return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' };

  let params: KubeObject[];
  if (paramRef.name) {
    const found = objects.get(namespaced ? `${namespace}/${paramRef.name}` : paramRef.name);
    params = found ? [found] : [];
  } else if (paramRef.selector) {
    let selector;
    try {
      selector = admissionSelector(paramRef.selector);
    } catch (e) {
      return { error: (e as Error).message };
    }
    params = [...objects.values()].filter(
      (o) => (!namespaced || o.metadata?.namespace === namespace) && selector.matches(o.metadata?.labels as Record<string, string> | undefined),
    );
  } else {
    return { error: 'one of name or selector must be provided' };
  }
  if (!params.length && paramRef.parameterNotFoundAction === 'Deny') return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  return { params };
}
