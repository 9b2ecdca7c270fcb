/**
 * Auditing, as kube-apiserver's: an `audit.k8s.io/v1` Policy decides per request how much is recorded (its level) and
 * at which stages; every recorded stage becomes an audit `Event` handed to each audit backend.
 */

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/** audit.k8s.io/v1 GroupResources: resources of one API group ('' is the core group). */
export interface AuditGroupResources {
  group?: string;
  /** Plural names, `*`, `pods/log`, `*\/status` or `pods/*`; empty: every resource of the group. */
  resources?: string[];
  resourceNames?: string[];
}

/** audit.k8s.io/v1 PolicyRule: a request matches when it matches every field the rule sets. */
export interface AuditPolicyRule {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: AuditGroupResources[];
  /** '' matches cluster-scoped resources. */
  namespaces?: string[];
  /** Paths of non-resource requests; a trailing `*` matches any suffix, `*` alone any path. */
  nonResourceURLs?: string[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** audit.k8s.io/v1 Policy: the first rule a request matches gives its level; none: not audited. */
export interface AuditPolicy {
  apiVersion?: 'audit.k8s.io/v1';
  kind?: 'Policy';
  metadata?: { name?: string; [key: string]: unknown };
  rules: AuditPolicyRule[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** authentication.k8s.io/v1 UserInfo as an audit event carries it (`{}` when authentication failed). */
export interface AuditUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** audit.k8s.io/v1 ObjectReference: what a resource request addressed. */
export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded fields of the response's meta/v1 Status (kube logs them at every level). */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/** audit.k8s.io/v1 Event, its fields in kube's order. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Exclude<AuditLevel, 'None'>;
  /** The request's `Audit-Id` response header. */
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; the lower-cased HTTP method for non-resource requests. */
  verb: string;
  user: AuditUserInfo;
  impersonatedUser?: AuditUserInfo;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  responseStatus?: AuditResponseStatus;
  /** At level Request and above: the request's body as decoded (a patch as sent). */
  requestObject?: unknown;
  /** At level RequestResponse: the object answered. */
  responseObject?: unknown;
  /** RFC 3339 with microseconds. */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/**
 * Where audit events go (kube's audit.Backend). `processEvent` is called on the request's path: it must return quickly
 * and never throw (queue the event, write it later); `shutdown` is awaited when the server closes and must deliver
 * every event received before it resolves.
 */
export interface AuditBackend {
  readonly name: string;
  processEvent(event: AuditEvent): void;
  /**
   * While the backend holds more events than it should, a promise of when it has caught up: the request whose events
   * filled it waits for it before its response ends (kube's blocking audit mode), so a backend slower than the
   * requests slows them down instead of holding an unbounded queue.
   */
  backpressure?(): Promise<void> | undefined;
  shutdown?(): Promise<void>;
}
