import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../lib/k8s/names.js';
import { validateLabelSelector } from '../admissionregistration/label-selector-validation.js';
import { rbacGroup, type Binding, type ClusterRole, type PolicyRule, type Role, type Subject } from './rbac-types.js';

/** kube's ValidatePolicyRule: namespaced rules (a Role's) cannot name non-resource URLs. */
function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if ((rule.verbs ?? []).length === 0) causes.push(fieldErrors.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) causes.push(fieldErrors.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if ((rule.apiGroups ?? []).length > 0 || (rule.resources ?? []).length > 0 || (rule.resourceNames ?? []).length > 0) {
      causes.push(fieldErrors.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return causes;
  }
  if ((rule.apiGroups ?? []).length === 0) causes.push(fieldErrors.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if ((rule.resources ?? []).length === 0) causes.push(fieldErrors.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return causes;
}

export function validateRole(role: Role): StatusCause[] {
  return (role.rules ?? []).flatMap((r, i) => validatePolicyRule(r, true, `rules[${i}]`));
}

export function validateClusterRole(role: ClusterRole): StatusCause[] {
  const causes = (role.rules ?? []).flatMap((r, i) => validatePolicyRule(r, false, `rules[${i}]`));
  const aggregation = role.aggregationRule;
  if (aggregation) {
    const selectors = aggregation.clusterRoleSelectors ?? [];
    if (selectors.length === 0) {
      causes.push(fieldErrors.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((s, i) => causes.push(...validateLabelSelector(s, `aggregationRule.clusterRoleSelectors[${i}]`)));
  }
  return causes;
}

/** kube's ValidateRoleBinding / ValidateClusterRoleBinding; on update the roleRef cannot change. */
export function validateBinding(binding: Binding, old: Binding | undefined, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const ref = binding.roleRef ?? { apiGroup: '', kind: '', name: '' };
  if (ref.apiGroup !== rbacGroup) causes.push(fieldErrors.notSupported('roleRef.apiGroup', ref.apiGroup, [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) causes.push(fieldErrors.notSupported('roleRef.kind', ref.kind, kinds));
  if (!ref.name) causes.push(fieldErrors.required('roleRef.name'));
  else for (const msg of isValidPathSegmentName(ref.name)) causes.push(fieldErrors.invalid('roleRef.name', ref.name, msg));
  (binding.subjects ?? []).forEach((s, i) => causes.push(...validateSubject(s, namespaced, `subjects[${i}]`)));
  if (old && (old.roleRef?.apiGroup !== ref.apiGroup || old.roleRef?.kind !== ref.kind || old.roleRef?.name !== ref.name)) {
    causes.push(fieldErrors.invalid('roleRef', ref, 'cannot change roleRef'));
  }
  return causes;
}

function validateSubject(subject: Subject, namespaced: boolean, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!subject.name) causes.push(fieldErrors.required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.name) for (const msg of isDNS1123Subdomain(subject.name)) causes.push(fieldErrors.invalid(`${path}.name`, subject.name, msg));
      if (subject.apiGroup) causes.push(fieldErrors.notSupported(`${path}.apiGroup`, subject.apiGroup, ['']));
      if (!namespaced && !subject.namespace) causes.push(fieldErrors.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (subject.apiGroup !== rbacGroup) causes.push(fieldErrors.notSupported(`${path}.apiGroup`, subject.apiGroup ?? '', [rbacGroup]));
      break;
    default:
      causes.push(fieldErrors.notSupported(`${path}.kind`, subject.kind, ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

/** kube's v1 defaults: a roleRef's and a User or Group subject's apiGroup is RBAC's when left empty. */
export function defaultBinding(binding: Binding): void {
  if (binding.roleRef && !binding.roleRef.apiGroup) binding.roleRef.apiGroup = rbacGroup;
  for (const s of binding.subjects ?? []) if (!s.apiGroup && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = rbacGroup;
}
