/**
 * Whether a request falls under a policy's matchConstraints or a binding's matchResources (kube's policy
 * matching.Matcher): namespaceSelector, objectSelector, excludeResourceRules, then resourceRules (none: every
 * resource) with their resourceNames. A namespace that cannot be read is an error only when the rest matches.
 * With matchPolicy Equivalent, another version of the same resource matches too (kapi serves every version of a
 * resource from one storage, so the request's own version is what expressions see).
 */
import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import type { NamespaceLookup } from '../../core/contracts/namespace-lookup.js';
import { ruleMatches, type MatchPolicy } from '../matching/admission-rules.js';
import { namespaceSelectorMatches, objectSelectorMatches } from '../matching/selectors.js';
import type { CompiledMatchResources, CompiledRule } from './compiled-policy.js';

export interface MatchOutcome {
  matches: boolean;
  /** A configuration error (the namespace of a matching request could not be read). */
  error?: string;
}

const NO_MATCH: MatchOutcome = { matches: false };
const MATCH: MatchOutcome = { matches: true };

function rulesMatch(rules: readonly CompiledRule[], attrs: AdmissionAttributes, policy: MatchPolicy): boolean {
  for (const rule of rules) {
    if (!ruleMatches(rule, attrs, policy)) continue;
    if (!rule.resourceNames?.length || rule.resourceNames.includes(attrs.name)) return true;
  }
  return false;
}

function rulesOutcome(m: CompiledMatchResources, attrs: AdmissionAttributes): boolean {
  if (rulesMatch(m.excludeResourceRules, attrs, m.matchPolicy)) return false;
  return !m.resourceRules.length || rulesMatch(m.resourceRules, attrs, m.matchPolicy);
}

/** Synchronous unless the namespace selector needs the namespace's labels. */
export function matchResources(m: CompiledMatchResources, attrs: AdmissionAttributes, namespaces: NamespaceLookup): MatchOutcome | Promise<MatchOutcome> {
  if (m.namespaceSelector.isEmpty()) {
    if (!objectSelectorMatches(m.objectSelector, attrs)) return NO_MATCH;
    return rulesOutcome(m, attrs) ? MATCH : NO_MATCH;
  }
  return namespaceSelectorMatches(m.namespaceSelector, attrs, namespaces).then(
    (nsMatches) => (nsMatches && objectSelectorMatches(m.objectSelector, attrs) && rulesOutcome(m, attrs) ? MATCH : NO_MATCH),
    (err: Error) => (objectSelectorMatches(m.objectSelector, attrs) && rulesOutcome(m, attrs) ? { matches: false, error: err.message } : NO_MATCH),
  );
}
