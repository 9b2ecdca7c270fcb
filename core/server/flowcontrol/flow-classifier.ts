import type { UserInfo } from '../../contracts/authenticator.js';
import type { FlowSchema, FlowSubject, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule } from '../../contracts/flowcontrol.js';
import { requestNamespace, type RequestInfo } from '../../request/request-info.js';

const serviceAccountPrefix = 'system:serviceaccount:';

/** The FlowSchemas in the order kube tries them: by matchingPrecedence, then by name. */
export function inMatchingOrder(schemas: readonly FlowSchema[]): FlowSchema[] {
  const precedence = (fs: FlowSchema) => fs.spec?.matchingPrecedence ?? 1000;
  const name = (fs: FlowSchema) => fs.metadata?.name ?? '';
  return [...schemas].sort((a, b) => precedence(a) - precedence(b) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

/** The first FlowSchema (of `ordered`) one of whose rules matches the request, as kube's APF classifier decides. */
export function matchFlowSchema(ordered: readonly FlowSchema[], user: UserInfo, info: RequestInfo): FlowSchema | undefined {
  return ordered.find((fs) => (fs.spec?.rules ?? []).some((rule) => ruleMatches(rule, user, info)));
}

/** The flow a request belongs to within its FlowSchema: by user, by namespace, or one flow for all. */
export function flowDistinguisher(fs: FlowSchema, user: UserInfo, info: RequestInfo): string {
  switch (fs.spec?.distinguisherMethod?.type) {
    case 'ByUser':
      return user.username;
    case 'ByNamespace':
      return requestNamespace(info);
    default:
      return '';
  }
}

function ruleMatches(rule: PolicyRulesWithSubjects, user: UserInfo, info: RequestInfo): boolean {
  if (!rule.subjects.some((s) => subjectMatches(s, user))) return false;
  if (info.isResourceRequest) return (rule.resourceRules ?? []).some((r) => resourceRuleMatches(r, info));
  return (rule.nonResourceRules ?? []).some((r) => nonResourceRuleMatches(r, info));
}

function subjectMatches(subject: FlowSubject, user: UserInfo): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.user?.name === '*' || subject.user?.name === user.username;
    case 'Group':
      return subject.group?.name === '*' || user.groups.includes(subject.group?.name ?? '');
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) return false;
      if (sa.name === '*') return user.username.startsWith(`${serviceAccountPrefix}${sa.namespace}:`);
      return user.username === `${serviceAccountPrefix}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

const matchesAll = (values: readonly string[] | undefined, value: string) => values?.includes('*') || values?.includes(value) || false;

function resourceRuleMatches(rule: ResourcePolicyRule, info: RequestInfo): boolean {
  if (!matchesAll(rule.verbs, info.verb) || !matchesAll(rule.apiGroups, info.apiGroup)) return false;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  if (!matchesAll(rule.resources, resource)) return false;
  const namespace = requestNamespace(info);
  return namespace === '' ? rule.clusterScope === true : matchesAll(rule.namespaces, namespace);
}

function nonResourceRuleMatches(rule: NonResourcePolicyRule, info: RequestInfo): boolean {
  if (!matchesAll(rule.verbs, info.verb)) return false;
  return rule.nonResourceURLs.some((url) => url === '*' || url === info.path || (url.endsWith('/*') && info.path.startsWith(url.slice(0, -1))));
}

