import type { KubeObject } from './resource-type.js';

/** flowcontrol.apiserver.k8s.io/v1 Subject: who a FlowSchema's rule is about. */
export interface FlowSubject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  user?: { name: string };
  group?: { name: string };
  serviceAccount?: { namespace: string; name: string };
}

export interface ResourcePolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface NonResourcePolicyRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface PolicyRulesWithSubjects {
  subjects: FlowSubject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export interface FlowSchemaCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** flowcontrol.apiserver.k8s.io/v1 FlowSchema: which requests go to which priority level, and how they form flows. */
export interface FlowSchema extends KubeObject {
  spec?: {
    priorityLevelConfiguration: { name: string };
    matchingPrecedence?: number;
    distinguisherMethod?: { type: 'ByUser' | 'ByNamespace' | string };
    rules?: PolicyRulesWithSubjects[];
  };
  status?: { conditions?: FlowSchemaCondition[] };
}

export interface QueuingConfiguration {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}

export interface LimitResponse {
  type: 'Queue' | 'Reject' | string;
  queuing?: QueuingConfiguration;
}

/** flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration: a share of the server's concurrency and its queues. */
export interface PriorityLevelConfiguration extends KubeObject {
  spec?: {
    type: 'Exempt' | 'Limited' | string;
    limited?: { nominalConcurrencyShares?: number; lendablePercent?: number; borrowingLimitPercent?: number; limitResponse?: LimitResponse };
    exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number };
  };
  status?: { conditions?: FlowSchemaCondition[] };
}

/**
 * The FlowSchemas and PriorityLevelConfigurations priority and fairness classifies requests by (registered by the
 * flowcontrol module, which follows the served objects).
 */
export interface FlowControlConfiguration {
  /** Resolves once the objects are known. */
  synced(): Promise<void>;
  flowSchemas(): readonly FlowSchema[];
  priorityLevels(): readonly PriorityLevelConfiguration[];
  /** Calls `onChange` after the objects changed; returns the function that unsubscribes. */
  subscribe(onChange: () => void): () => void;
}

/** What one priority level does now, and has done since the server started (for metrics). */
export interface PriorityLevelStats {
  priorityLevel: string;
  /** Seats the level may occupy at once (0 for an exempt level: no limit). */
  nominalLimitSeats: number;
  executingRequests: number;
  executingSeats: number;
  waitingRequests: number;
  dispatchedRequests: number;
  /** Requests answered 429, by kube's `reason` label: queue-full, concurrency-limit, time-out, cancelled. */
  rejectedRequests: Record<'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled', number>;
}

/**
 * The counters of the server's request limiting, for a metrics exporter: per priority level with priority and
 * fairness, or two pseudo-levels `readOnly` and `mutating` with the plain max-in-flight filter.
 */
export interface FlowControlStats {
  readonly mode: 'priority-and-fairness' | 'max-in-flight';
  levels(): PriorityLevelStats[];
}
