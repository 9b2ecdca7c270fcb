import type { PolicyRule } from './policy-rule.js';
import { goCompare } from '../go/strings.js';
import { goQuote } from '../go/go-values.js';

/** Go's `%q` of a []string: `["a" "b"]`. */
function quotedList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** kube's rbacv1helpers.CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, empty fields left out. */
export function compactRuleString(rule: PolicyRule): string {
  const parts: string[] = [];
  const field = (name: string, values: readonly string[] | undefined) => {
    if (values && values.length > 0) parts.push(`${name}:${quotedList(values)}`);
  };
  field('APIGroups', rule.apiGroups);
  field('Resources', rule.resources);
  field('NonResourceURLs', rule.nonResourceURLs);
  field('ResourceNames', rule.resourceNames);
  field('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * kube's escalation message: the missing rules compacted (rules for one group, resource and name merged into one with
 * all their verbs, as CompactRules) and listed sorted, one a line.
 */
export function escalationMessage(username: string, groups: readonly string[], missing: readonly PolicyRule[]): string {
  const simple = new Map<string, PolicyRule>();
  const compacted: PolicyRule[] = [];
  for (const rule of missing) {
    const key = simpleResourceKey(rule);
    if (key === undefined) compacted.push(rule);
    else {
      const existing = simple.get(key);
      if (existing) existing.verbs = [...existing.verbs, ...rule.verbs];
      else simple.set(key, { ...rule, verbs: [...rule.verbs] });
    }
  }
  compacted.push(...simple.values());
  const lines = [...new Set(compacted.map(compactRuleString))].sort(goCompare);
  return `user ${goQuote(username)} (groups=${quotedList(groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
}

/** kube's isSimpleResourceRule: one group, one resource, at most one name, no URLs. */
function simpleResourceKey(rule: PolicyRule): string | undefined {
  if ((rule.nonResourceURLs ?? []).length > 0) return undefined;
  if ((rule.apiGroups ?? []).length !== 1 || (rule.resources ?? []).length !== 1 || (rule.resourceNames ?? []).length > 1) return undefined;
  return JSON.stringify([rule.apiGroups![0], rule.resources![0], rule.resourceNames ?? []]);
}
