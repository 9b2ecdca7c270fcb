import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import { resourcePatternsMatch } from '../../lib/k8s/resource-patterns.js';

/** admissionregistration.k8s.io/v1 RuleWithOperations (also a NamedRuleWithOperations without resourceNames). */
export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  /** '*' (default), 'Cluster' or 'Namespaced'. */
  scope?: string;
}

/** 'Equivalent' (default) also matches the same group and resource in another version; 'Exact' does not. */
export type MatchPolicy = 'Exact' | 'Equivalent';

const has = (list: string[] | undefined, value: string) => !!list && (list.includes('*') || list.includes(value));

/**
 * Whether a rule covers a request (kube's rules.Matcher). A Namespace is cluster-scoped even though its requests
 * carry its own name as namespace. With `Equivalent`, the version is not compared: every served version of a
 * resource is the same resource to kapi (CRD versions convert into each other).
 */
export function ruleMatches(rule: RuleWithOperations, attrs: AdmissionAttributes, matchPolicy: MatchPolicy = 'Equivalent'): boolean {
  const { group, version, resource } = attrs.resource;
  if (!has(rule.operations, attrs.operation)) return false;
  if (!has(rule.apiGroups, group)) return false;
  if (matchPolicy === 'Exact' && !has(rule.apiVersions, version)) return false;
  if (matchPolicy === 'Equivalent' && !rule.apiVersions?.length) return false;
  if (!resourcePatternsMatch(rule.resources ?? [], resource, attrs.subresource)) return false;
  const isNamespace = group === '' && resource === 'namespaces';
  switch (rule.scope ?? '*') {
    case 'Namespaced':
      return !isNamespace && attrs.namespace !== '';
    case 'Cluster':
      return isNamespace || attrs.namespace === '';
    default:
      return true;
  }
}
