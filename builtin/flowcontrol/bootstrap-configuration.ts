import type { FlowSchema, FlowSubject, NonResourcePolicyRule, PolicyRulesWithSubjects, PriorityLevelConfiguration, ResourcePolicyRule } from '../../core/contracts/flowcontrol.js';

/** The annotation saying whether the server maintains an object's spec ("true") or leaves it to its users ("false"). */
export const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';

const group = (name: string): FlowSubject => ({ kind: 'Group', group: { name } });
const user = (name: string): FlowSubject => ({ kind: 'User', user: { name } });
const kubeSystemServiceAccount = (name: string): FlowSubject => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } });

const everyResource: ResourcePolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const everyNonResource: NonResourcePolicyRule = { verbs: ['*'], nonResourceURLs: ['*'] };
const everything = (subjects: FlowSubject[]): PolicyRulesWithSubjects => ({ subjects, resourceRules: [everyResource], nonResourceRules: [everyNonResource] });
const getCreateUpdate = (apiGroup: string, resources: string[], namespaces: string[]): ResourcePolicyRule => ({
  verbs: ['get', 'create', 'update'],
  apiGroups: [apiGroup],
  resources,
  namespaces,
});

function flowSchema(name: string, level: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined, rules: PolicyRulesWithSubjects): FlowSchema {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name, annotations: { [autoUpdateAnnotation]: 'true' } },
    spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence, ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}), rules: [rules] },
  };
}

function queuingLevel(name: string, nominalConcurrencyShares: number, lendablePercent: number, queues: number, handSize: number): PriorityLevelConfiguration {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { [autoUpdateAnnotation]: 'true' } },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } },
  };
}

/** kube's mandatory priority levels: `exempt` (never limited) and `catch-all` (a small share; over it, 429 at once). */
export function mandatoryPriorityLevels(): PriorityLevelConfiguration[] {
  const meta = (name: string) => ({ name, annotations: { [autoUpdateAnnotation]: 'true' } });
  return [
    { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: meta('exempt'), spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: meta('catch-all'),
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } },
    },
  ];
}

/** kube's mandatory FlowSchemas: system:masters exempt; every other request, by user, to catch-all. */
export function mandatoryFlowSchemas(): FlowSchema[] {
  return [
    flowSchema('exempt', 'exempt', 1, undefined, everything([group('system:masters')])),
    flowSchema('catch-all', 'catch-all', 10000, 'ByUser', everything([group('system:unauthenticated'), group('system:authenticated')])),
  ];
}

/** kube's suggested priority levels (v1.32): their shares, lendable percents and queues. */
export function suggestedPriorityLevels(): PriorityLevelConfiguration[] {
  return [
    queuingLevel('system', 30, 33, 64, 6),
    queuingLevel('node-high', 40, 25, 64, 6),
    queuingLevel('leader-election', 10, 0, 16, 4),
    queuingLevel('workload-high', 40, 50, 128, 6),
    queuingLevel('workload-low', 100, 90, 128, 6),
    queuingLevel('global-default', 20, 50, 128, 6),
  ];
}

/** kube's suggested FlowSchemas (v1.32), by matchingPrecedence. */
export function suggestedFlowSchemas(): FlowSchema[] {
  const authenticatedOrNot = [group('system:unauthenticated'), group('system:authenticated')];
  return [
    flowSchema('probes', 'exempt', 2, undefined, { subjects: authenticatedOrNot, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }),
    flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
      subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), kubeSystemServiceAccount('*')],
      resourceRules: [getCreateUpdate('', ['endpoints', 'configmaps'], ['kube-system']), getCreateUpdate('coordination.k8s.io', ['leases'], ['*'])],
    }),
    flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
      subjects: [user('system:kube-controller-manager'), kubeSystemServiceAccount('endpoint-controller'), kubeSystemServiceAccount('endpointslicemirroring-controller')],
      resourceRules: [getCreateUpdate('', ['endpoints'], ['*'])],
    }),
    flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
      subjects: [kubeSystemServiceAccount('*')],
      resourceRules: [getCreateUpdate('', ['endpoints', 'configmaps'], ['*']), getCreateUpdate('coordination.k8s.io', ['leases'], ['*'])],
    }),
    flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
      subjects: [group('system:nodes')],
      resourceRules: [
        { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] },
        { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
      ],
    }),
    flowSchema('system-nodes', 'system', 500, 'ByUser', everything([group('system:nodes')])),
    flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything([user('system:kube-controller-manager')])),
    flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything([user('system:kube-scheduler')])),
    flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything([kubeSystemServiceAccount('*')])),
    flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything([group('system:serviceaccounts')])),
    flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(authenticatedOrNot)),
  ];
}
