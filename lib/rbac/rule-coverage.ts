import { ALL, type PolicyRule } from './policy-rule.js';

/**
 * Whether `owner`'s rules grant everything `servant`'s do, as kube's validation.Covers (the escalation check): each
 * servant rule is broken down into single group/resource/verb(/name) or URL/verb rules, and each must be covered by
 * one owner rule. Returns the uncovered pieces.
 */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}

/** kube's BreakdownRule: one rule per group × resource × verb (× resourceName), then per nonResourceURL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const pieces: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) pieces.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of names) pieces.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) pieces.push({ nonResourceURLs: [url], verbs: [verb] });
  return pieces;
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => set.includes(w));
}

function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ALL) || hasAll(owner, wanted)) return true;
  return wanted.every((path) => {
    if (owner.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owner.includes(`*/${path.slice(slash + 1)}`);
  });
}

function nonResourceURLsCover(owner: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((path) => owner.some((o) => o === path || (o.endsWith('*') && path.startsWith(o.replace(/\*+$/, '')))));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  return (
    (owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs)) &&
    ((owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? [])) &&
    resourcesCover(owner.resources ?? [], sub.resources ?? []) &&
    nonResourceURLsCover(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []) &&
    (ownerNames.length === 0 || (subNames.length > 0 && hasAll(ownerNames, subNames)))
  );
}
