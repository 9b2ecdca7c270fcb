import type { AuditLevel, AuditPolicy, AuditPolicyRule, AuditStage } from '../contracts/audit.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { RequestInfo } from '../request/request-info.js';

/** How one request is audited (kube's RequestAuditConfig). */
export interface RequestAuditConfig {
  level: AuditLevel;
  omitStages: ReadonlySet<AuditStage>;
  omitManagedFields: boolean;
}

const notAudited: RequestAuditConfig = { level: 'None', omitStages: new Set(), omitManagedFields: false };

/**
 * kube's policy rule evaluator: the first rule a request matches decides; no match is level None. A rule's omitStages
 * are the union of its own and the policy's; its omitManagedFields, when unset, the policy's.
 */
export class PolicyRuleEvaluator {
  private readonly rules: { rule: AuditPolicyRule; config: RequestAuditConfig }[];

  constructor(policy: AuditPolicy) {
    this.rules = policy.rules.map((rule) => ({
      rule,
      config: {
        level: rule.level,
        omitStages: new Set([...(policy.omitStages ?? []), ...(rule.omitStages ?? [])]),
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
      },
    }));
  }

  /** `user` is absent for a request whose authentication failed: rules on users or groups do not match it. */
  evaluate(info: RequestInfo, user: UserInfo | undefined): RequestAuditConfig {
    for (const { rule, config } of this.rules) if (ruleMatches(rule, info, user)) return config;
    return notAudited;
  }
}

function ruleMatches(rule: AuditPolicyRule, info: RequestInfo, user: UserInfo | undefined): boolean {
  if (rule.users?.length && (!user || !rule.users.includes(user.username))) return false;
  if (rule.userGroups?.length && (!user || !user.groups.some((g) => rule.userGroups!.includes(g)))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(info.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return matchesResource(rule, info);
  if (rule.nonResourceURLs?.length) return !info.isResourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(info.path, spec));
  return true;
}

function matchesResource(rule: AuditPolicyRule, info: RequestInfo): boolean {
  if (!info.isResourceRequest) return false;
  // cluster-scoped resources have the namespace ''
  if (rule.namespaces?.length && !rule.namespaces.includes(info.namespace)) return false;
  if (!rule.resources?.length) return true;
  const combined = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== info.apiGroup) continue;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(info.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      // "*/status": that subresource of any resource
      if (info.subresource && res.startsWith('*/') && info.subresource === trimLeft(res, '*/')) return true;
      // "pods/*": the resource and any of its subresources
      if (res.endsWith('/*') && info.resource === trimRight(res, '/*')) return true;
    }
  }
  return false;
}

/** `*` any path; `/apis*` a prefix; else the exact path. */
function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(trimRight(spec, '*'));
}

/** Go's strings.TrimLeft: drops leading characters that are in `cutset`. */
function trimLeft(s: string, cutset: string): string {
  let i = 0;
  while (i < s.length && cutset.includes(s[i]!)) i++;
  return s.slice(i);
}

/** Go's strings.TrimRight. */
function trimRight(s: string, cutset: string): string {
  let i = s.length;
  while (i > 0 && cutset.includes(s[i - 1]!)) i--;
  return s.slice(0, i);
}
