import { isDeepStrictEqual } from 'node:util';
import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import type { FlowSchema, FlowSubject, NonResourcePolicyRule, PriorityLevelConfiguration, ResourcePolicyRule } from '../../core/contracts/flowcontrol.js';
import { isValidPathSegmentName } from '../../lib/k8s/names.js';

const distinguisherMethods = ['ByNamespace', 'ByUser'];
const subjectKinds = ['Group', 'ServiceAccount', 'User'];
const levelTypes = ['Exempt', 'Limited'];
const limitResponseTypes = ['Queue', 'Reject'];
/** kube's ceiling on a level's queues (10^7). */
const maxQueues = 10_000_000;
const supportedVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];

/** kube's ValidateFlowSchemaSpec (the spec of a mandatory one is checked by the module, against kube's). */
export function validateFlowSchema(fs: FlowSchema): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = fs.spec ?? { priorityLevelConfiguration: { name: '' } };
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) causes.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > 10000) causes.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, 'must not be greater than 10000'));
  if (precedence === 1 && fs.metadata?.name !== 'exempt') {
    causes.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  }
  const method = spec.distinguisherMethod;
  if (method && !distinguisherMethods.includes(method.type)) causes.push(fieldErrors.notSupported('spec.distinguisherMethod.type', method.type, distinguisherMethods));
  const level = spec.priorityLevelConfiguration?.name ?? '';
  if (level === '') causes.push(fieldErrors.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  else for (const msg of isValidPathSegmentName(level)) causes.push(fieldErrors.invalid('spec.priorityLevelConfiguration.name', level, msg));
  (spec.rules ?? []).forEach((rule, i) => {
    const path = `spec.rules[${i}]`;
    const subjects = rule.subjects ?? [];
    if (subjects.length === 0) causes.push(fieldErrors.required(`${path}.subjects`, 'subjects must contain at least one value'));
    subjects.forEach((s, j) => causes.push(...validateSubject(s, `${path}.subjects[${j}]`)));
    const resourceRules = rule.resourceRules ?? [];
    const nonResourceRules = rule.nonResourceRules ?? [];
    if (resourceRules.length === 0 && nonResourceRules.length === 0) {
      causes.push(fieldErrors.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    }
    resourceRules.forEach((r, j) => causes.push(...validateResourceRule(r, `${path}.resourceRules[${j}]`)));
    nonResourceRules.forEach((r, j) => causes.push(...validateNonResourceRule(r, `${path}.nonResourceRules[${j}]`)));
  });
  return causes;
}

function validateSubject(subject: FlowSubject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const forbidOthers = (keep: 'user' | 'group' | 'serviceAccount') => {
    if (keep !== 'user' && subject.user) causes.push(fieldErrors.forbidden(`${path}.user`, "user is forbidden when subject kind is not 'User'"));
    if (keep !== 'group' && subject.group) causes.push(fieldErrors.forbidden(`${path}.group`, "group is forbidden when subject kind is not 'Group'"));
    if (keep !== 'serviceAccount' && subject.serviceAccount) {
      causes.push(fieldErrors.forbidden(`${path}.serviceAccount`, "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"));
    }
  };
  switch (subject.kind) {
    case 'User':
      if (!subject.user) causes.push(fieldErrors.required(`${path}.user`, "user is required when subject kind is 'User'"));
      else if (!subject.user.name) causes.push(fieldErrors.required(`${path}.user.name`));
      forbidOthers('user');
      break;
    case 'Group':
      if (!subject.group) causes.push(fieldErrors.required(`${path}.group`, "group is required when subject kind is 'Group'"));
      else if (!subject.group.name) causes.push(fieldErrors.required(`${path}.group.name`));
      forbidOthers('group');
      break;
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) causes.push(fieldErrors.required(`${path}.serviceAccount`, "serviceAccount is required when subject kind is 'ServiceAccount'"));
      else {
        if (!sa.name) causes.push(fieldErrors.required(`${path}.serviceAccount.name`));
        if (!sa.namespace) causes.push(fieldErrors.required(`${path}.serviceAccount.namespace`, 'must specify namespace for service account'));
      }
      forbidOthers('serviceAccount');
      break;
    }
    default:
      causes.push(fieldErrors.notSupported(`${path}.kind`, subject.kind, subjectKinds));
  }
  return causes;
}

/** A list that must not be empty, and may hold "*" only alone (`what`: the plural the messages name). */
function validateWildcardList(values: readonly string[] | undefined, path: string, required: string, what: string): StatusCause[] {
  if (!values || values.length === 0) return [fieldErrors.required(path, required)];
  if (values.length > 1 && values.includes('*')) return [fieldErrors.invalid(path, values, `if '*' is present, must not specify other ${what}`)];
  return [];
}

function validateVerbs(verbs: readonly string[] | undefined, path: string): StatusCause[] {
  const causes = validateWildcardList(verbs, path, 'verbs must contain at least one value', 'verbs');
  if (causes.length === 0 && !verbs!.includes('*') && verbs!.some((v) => !supportedVerbs.includes(v))) causes.push(fieldErrors.notSupported(path, verbs, supportedVerbs));
  return causes;
}

function validateResourceRule(rule: ResourcePolicyRule, path: string): StatusCause[] {
  const causes = [
    ...validateVerbs(rule.verbs, `${path}.verbs`),
    ...validateWildcardList(rule.apiGroups, `${path}.apiGroups`, 'resource rules must supply at least one api group', 'api groups'),
    ...validateWildcardList(rule.resources, `${path}.resources`, 'resource rules must supply at least one resource', 'resources'),
  ];
  const namespaces = rule.namespaces ?? [];
  if (namespaces.length === 0 && !rule.clusterScope) {
    causes.push(fieldErrors.required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (namespaces.length > 1 && namespaces.includes('*')) {
    causes.push(fieldErrors.invalid(`${path}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces"));
  }
  return causes;
}

function validateNonResourceRule(rule: NonResourcePolicyRule, path: string): StatusCause[] {
  const urls = rule.nonResourceURLs;
  const causes = [
    ...validateVerbs(rule.verbs, `${path}.verbs`),
    ...validateWildcardList(urls, `${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value', 'non-resource URLs'),
  ];
  if (urls && !urls.includes('*')) {
    urls.forEach((url, i) => {
      const problem = nonResourceURLProblem(url);
      if (problem) causes.push(fieldErrors.invalid(`${path}.nonResourceURLs[${i}]`, url, problem));
    });
  }
  return causes;
}

/** kube's ValidateNonResourceURLPath: a path from "/", without spaces or "//", "*" only as a "/*" suffix. */
function nonResourceURLProblem(url: string): string | undefined {
  if (url === '') return 'must not be empty';
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return 'must start with slash';
  if (url.includes(' ')) return 'must not contain white-space';
  if (url.includes('//')) return 'must not contain double slash';
  const wildcards = url.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !url.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}

/** kube's ValidatePriorityLevelConfigurationSpec (v1). */
export function validatePriorityLevelConfiguration(pl: PriorityLevelConfiguration): StatusCause[] {
  const spec = pl.spec ?? { type: '' };
  const causes: StatusCause[] = [];
  if ((pl.metadata?.name === 'exempt') !== (spec.type === 'Exempt')) {
    causes.push(fieldErrors.invalid('spec.type', spec.type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  if (!levelTypes.includes(spec.type)) return [...causes, fieldErrors.notSupported('spec.type', spec.type, levelTypes)];
  if (spec.type === 'Exempt') {
    if (spec.limited) causes.push(fieldErrors.forbidden('spec.limited', 'must be nil if the type is not Limited'));
    const exempt = spec.exempt;
    if (exempt) {
      causes.push(...nonNegative(exempt.nominalConcurrencyShares, 'spec.exempt.nominalConcurrencyShares'));
      causes.push(...percent(exempt.lendablePercent, 'spec.exempt.lendablePercent'));
    }
    return causes;
  }
  if (spec.exempt) causes.push(fieldErrors.forbidden('spec.exempt', 'must be nil if the type is Limited'));
  const limited = spec.limited;
  if (!limited) return [...causes, fieldErrors.required('spec.limited', 'must not be empty when type is Limited')];
  causes.push(...nonNegative(limited.nominalConcurrencyShares, 'spec.limited.nominalConcurrencyShares'));
  causes.push(...percent(limited.lendablePercent, 'spec.limited.lendablePercent'));
  if (limited.borrowingLimitPercent !== undefined && limited.borrowingLimitPercent < 0) {
    causes.push(fieldErrors.invalid('spec.limited.borrowingLimitPercent', limited.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  }
  const response = limited.limitResponse ?? { type: '' };
  if (!limitResponseTypes.includes(response.type)) return [...causes, fieldErrors.notSupported('spec.limited.limitResponse.type', response.type, limitResponseTypes)];
  if (response.type === 'Reject') {
    if (response.queuing) causes.push(fieldErrors.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
    return causes;
  }
  const q = response.queuing;
  if (!q) return [...causes, fieldErrors.required('spec.limited.limitResponse.queuing', 'must not be empty if limited.limitResponse.type is Limited')];
  const path = 'spec.limited.limitResponse.queuing';
  const queues = q.queues ?? 0;
  const handSize = q.handSize ?? 0;
  if ((q.queueLengthLimit ?? 0) <= 0) causes.push(fieldErrors.invalid(`${path}.queueLengthLimit`, q.queueLengthLimit ?? 0, 'must be positive'));
  if (queues <= 0) causes.push(fieldErrors.invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > maxQueues) causes.push(fieldErrors.invalid(`${path}.queues`, queues, `must not be greater than ${maxQueues}`));
  if (handSize <= 0) causes.push(fieldErrors.invalid(`${path}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues) causes.push(fieldErrors.invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  return causes;
}

function nonNegative(value: number | undefined, path: string): StatusCause[] {
  return value !== undefined && value < 0 ? [fieldErrors.invalid(path, value, 'must be a non-negative integer')] : [];
}

function percent(value: number | undefined, path: string): StatusCause[] {
  return value !== undefined && (value < 0 || value > 100) ? [fieldErrors.invalid(path, value, 'must be between 0 and 100, inclusive')] : [];
}

/** kube's status validation of both kinds: each condition has a type, no type twice. */
export function validateConditions(obj: FlowSchema | PriorityLevelConfiguration): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  (obj.status?.conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    if (seen.has(type)) causes.push(fieldErrors.duplicate(`status.conditions[${i}].type`, type));
    seen.add(type);
    if (type === '') causes.push(fieldErrors.required(`status.conditions[${i}].type`, 'must not be empty'));
  });
  return causes;
}

/** kube's check that a mandatory object's spec is exactly kube's own (`mandatory`: that spec, absent for others). */
export function validateMandatorySpec(obj: FlowSchema | PriorityLevelConfiguration, mandatory: object | undefined): StatusCause[] {
  if (!mandatory || isDeepStrictEqual(obj.spec, mandatory)) return [];
  return [fieldErrors.invalid('spec', obj.spec, `spec of '${obj.metadata?.name ?? ''}' must equal the fixed value`)];
}
