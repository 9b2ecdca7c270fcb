import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import type { NamespaceLookup } from '../../core/contracts/namespace-lookup.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { errors } from '../../core/contracts/api-error.js';
import { labelSelectorFromObject, type LabelSelector, type LabelSelectorObject } from '../../lib/k8s/labels/label-selector.js';
import { LabelSelectorError } from '../../lib/k8s/labels/label-selector-error.js';

/**
 * A metav1.LabelSelector compiled once; an absent selector is `{}` (everything), as kube defaults it for admission.
 * An invalid one is a 400 with kube's text.
 */
export function admissionSelector(sel: LabelSelectorObject | null | undefined): LabelSelector {
  try {
    return labelSelectorFromObject(sel ?? {});
  } catch (err) {
    if (err instanceof LabelSelectorError) throw errors.badRequest(err.message);
    throw err;
  }
}

const labelsOf = (obj: KubeObject | null | undefined) => obj?.metadata?.labels as Record<string, string> | undefined;

/** objectSelector: the new object's labels or the old object's (kube matches either, so deletes match too). */
export function objectSelectorMatches(selector: LabelSelector, attrs: AdmissionAttributes): boolean {
  if (selector.isEmpty()) return true;
  const deleting = attrs.operation === 'DELETE';
  return (!deleting && selector.matches(labelsOf(attrs.object))) || (!!attrs.oldObject && selector.matches(labelsOf(attrs.oldObject)));
}

/**
 * The labels namespaceSelector is matched against (kube's namespace.Matcher): undefined for cluster-scoped requests
 * other than namespaces (never exempted); for a namespace created or updated, the request's own object; else the
 * namespace as stored — a missing namespace is the 404 kube answers.
 */
export async function namespaceLabels(attrs: AdmissionAttributes, namespaces: NamespaceLookup): Promise<Record<string, string> | undefined | null> {
  const isNamespace = attrs.resource.group === '' && attrs.resource.resource === 'namespaces';
  if (!isNamespace && !attrs.namespace) return null;
  if (isNamespace && !attrs.subresource && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) return labelsOf(attrs.object) ?? {};
  const name = isNamespace ? attrs.name : attrs.namespace;
  const ns = await namespaces.lookup(name);
  if (!ns) throw errors.notFound({ group: '', resource: 'namespaces', name });
  return labelsOf(ns) ?? {};
}

/** namespaceSelector: cluster-scoped requests (not namespaces) always match; others by their namespace's labels. */
export async function namespaceSelectorMatches(selector: LabelSelector, attrs: AdmissionAttributes, namespaces: NamespaceLookup): Promise<boolean> {
  if (selector.isEmpty()) return true;
  const labels = await namespaceLabels(attrs, namespaces);
  return labels === null || selector.matches(labels);
}
