import { ALL, type PolicyRule, type RuleRequest } from './policy-rule.js';

/** Whether `rule` allows the request, as kube's RBAC RuleAllows. */
export function ruleAllows(request: RuleRequest, rule: PolicyRule): boolean {
  if (!verbMatches(rule, request.verb)) return false;
  if (!request.isResourceRequest) return nonResourceURLMatches(rule, request.path);
  const resource = request.resource ?? '';
  const subresource = request.subresource ?? '';
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return apiGroupMatches(rule, request.apiGroup ?? '') && resourceMatches(rule, combined, subresource) && resourceNameMatches(rule, request.name ?? '');
}

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `*` matches every resource and subresource; `*\/scale` a `scale` subresource of any resource. */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (r) => r === ALL || r === combined || (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)),
  );
}

/** A rule with resourceNames matches only requests naming one of them (never a list or a create without a name). */
function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** An entry ending in `*` matches every path it is a prefix of (`/healthz/*`). */
function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === ALL || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}
