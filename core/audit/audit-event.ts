import type { Context } from 'koa';
import YAML from 'yaml';
import type { AuditEvent, AuditObjectReference, AuditStage, AuditUserInfo } from '../contracts/audit.js';
import type { RequestInfo } from '../request/request-info.js';
import { baseMediaType } from '../contracts/body-decoding.js';
import type { AuditEventBase, RequestAudit } from './request-audit.js';
import { sourceIPs } from './source-ips.js';

/** kube cuts longer User-Agents to this many bytes and marks them. */
const maxUserAgentLength = 1024;
const userAgentTruncateSuffix = '...TRUNCATED';

/** The fields of a request's events known when it is received. */
export function eventBase(ctx: Context, info: RequestInfo, user: AuditUserInfo): AuditEventBase {
  const ua = ctx.get('user-agent');
  return {
    auditID: ctx.response.get('Audit-Id'),
    requestURI: ctx.req.url ?? ctx.url,
    verb: info.verb,
    user,
    sourceIPs: sourceIPs(ctx.req),
    userAgent: ua.length > maxUserAgentLength ? ua.slice(0, maxUserAgentLength) + userAgentTruncateSuffix : ua,
    ...(info.isResourceRequest ? { objectRef: objectRef(info) } : {}),
    requestReceivedTimestamp: microTimeNow(),
  };
}

function objectRef(info: RequestInfo): AuditObjectReference {
  const ref: AuditObjectReference = {};
  if (info.resource) ref.resource = info.resource;
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.apiGroup) ref.apiGroup = info.apiGroup;
  if (info.apiVersion) ref.apiVersion = info.apiVersion;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

/** The event of one stage, its fields in kube's order; `code` is the response's status code once there is one. */
export function auditEvent(audit: RequestAudit, stage: AuditStage, code?: number): AuditEvent {
  const { base, config } = audit;
  const event: Partial<AuditEvent> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: config.level as AuditEvent['level'],
    auditID: base.auditID,
    stage,
    requestURI: base.requestURI,
    verb: base.verb,
    user: base.user,
  };
  if (audit.impersonatedUser) event.impersonatedUser = audit.impersonatedUser;
  if (base.sourceIPs.length) event.sourceIPs = base.sourceIPs;
  if (base.userAgent) event.userAgent = base.userAgent;
  if (base.objectRef) event.objectRef = { ...base.objectRef };
  const status = responseStatus(audit, stage, code);
  if (status) event.responseStatus = status;
  if (stage !== 'RequestReceived') {
    const request = audit.wantsRequest ? requestObject(audit) : undefined;
    if (request !== undefined) event.requestObject = config.omitManagedFields ? withoutManagedFields(request) : request;
    if (audit.responseObject !== undefined && stage !== 'ResponseStarted') {
      event.responseObject = config.omitManagedFields ? withoutManagedFields(audit.responseObject) : audit.responseObject;
    }
  }
  event.requestReceivedTimestamp = base.requestReceivedTimestamp;
  event.stageTimestamp = microTimeNow();
  const annotations = { ...audit.admissionAnnotations, ...audit.annotations };
  if (Object.keys(annotations).length) event.annotations = annotations;
  return event as AuditEvent;
}

function responseStatus(audit: RequestAudit, stage: AuditStage, code: number | undefined): AuditEvent['responseStatus'] {
  if (stage === 'Panic') return { metadata: {}, status: 'Failure', message: audit.panic!, reason: 'InternalError', code: 500 };
  if (code === undefined) return undefined;
  if (audit.failedAuthentication !== undefined) {
    return { metadata: {}, ...(audit.failedAuthentication ? { message: audit.failedAuthentication } : {}), code };
  }
  return audit.responseStatus ?? { metadata: {}, code };
}

/** The decoded body, or the raw one decoded as JSON or YAML (a patch, DeleteOptions); undefined when it is neither. */
function requestObject(audit: RequestAudit): unknown {
  if (audit.requestObject !== undefined) return audit.requestObject;
  const raw = audit.requestBody;
  if (!raw?.length) return undefined;
  try {
    return audit.requestBodyType && baseMediaType(audit.requestBodyType).endsWith('yaml') ? YAML.parse(raw.toString('utf8')) : JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** kube's omitManagedFields: the object (or each item of a list) without metadata.managedFields; the original is kept. */
export function withoutManagedFields(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  if (Array.isArray(obj.items)) return { ...obj, items: obj.items.map(withoutManagedFields) };
  const meta = obj.metadata as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object' || !('managedFields' in meta)) return value;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** Now as a metav1.MicroTime: RFC 3339 in UTC with six fraction digits. */
export function microTimeNow(): string {
  const ms = performance.timeOrigin + performance.now();
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  return `${new Date(whole).toISOString().slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}
