import type { Context } from 'koa';
import type { AuditObjectReference, AuditResponseStatus, AuditUserInfo } from '../contracts/audit.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { RequestAuditConfig } from './policy-rule-evaluator.js';

/** An event's fields known when the request is received. */
export interface AuditEventBase {
  auditID: string;
  requestURI: string;
  verb: string;
  user: AuditUserInfo;
  sourceIPs: string[];
  userAgent: string;
  objectRef?: AuditObjectReference;
  requestReceivedTimestamp: string;
}

/**
 * What is known of one audited request (kube's AuditContext): the event's fields as the filter set them, and what
 * the handlers record while serving it. Requests at level None have none, and every recording function is then a
 * look-up that finds nothing.
 */
export class RequestAudit {
  /** Set by filters (authorization's decision and reason). */
  readonly annotations: Record<string, string> = {};
  /** Shared with admission: the writes' `AdmissionAttributes.auditAnnotations`. */
  readonly admissionAnnotations: Record<string, string> = {};
  impersonatedUser?: AuditUserInfo;
  /** The body as read, decoded for the event only when its level wants the request object. */
  requestBody?: Buffer;
  requestBodyType?: string;
  /** The body as a handler decoded it (create, update). */
  requestObject?: unknown;
  responseObject?: unknown;
  responseStatus?: AuditResponseStatus;
  /** The message of the Panic stage: an error that is not an ApiError (kube: a handler's panic). */
  panic?: string;
  /** The stages already sent (ResponseStarted is sent once). */
  readonly sent = new Set<string>();

  constructor(
    readonly config: RequestAuditConfig,
    /** The fields every stage's event has (the objectRef is completed while serving). */
    readonly base: AuditEventBase,
    readonly longRunning: boolean,
    /** kube's failed-authentication event: only ResponseStarted, its status carrying this message. */
    readonly failedAuthentication?: string,
  ) {}

  get wantsRequest(): boolean {
    return this.config.level === 'Request' || this.config.level === 'RequestResponse';
  }

  get wantsResponse(): boolean {
    return this.config.level === 'RequestResponse';
  }
}

const audits = new WeakMap<Context, RequestAudit>();

export function setRequestAudit(ctx: Context, audit: RequestAudit): void {
  audits.set(ctx, audit);
}

export function requestAuditOf(ctx: Context): RequestAudit | undefined {
  return audits.get(ctx);
}

/** kube's audit.AddAuditAnnotation for filters: the first value of a key stays. */
export function addRequestAuditAnnotation(ctx: Context, key: string, value: string): void {
  const audit = audits.get(ctx);
  if (audit && !Object.hasOwn(audit.annotations, key)) audit.annotations[key] = value;
}

/** The map a write's admission attributes record audit annotations in, when the request is audited. */
export function admissionAuditAnnotations(ctx: Context): Record<string, string> | undefined {
  return audits.get(ctx)?.admissionAnnotations;
}

/** kube's audit.LogImpersonatedUser: for the impersonation filter, once it has decided whom the request acts as. */
export function auditImpersonatedUser(ctx: Context, user: UserInfo): void {
  const audit = audits.get(ctx);
  if (audit) audit.impersonatedUser = auditUser(user);
}

/** The raw request body, as read. */
export function auditRequestBody(ctx: Context, body: Buffer): void {
  const audit = audits.get(ctx);
  if (!audit) return;
  audit.requestBody = body;
  audit.requestBodyType = ctx.get('content-type');
}

/** kube's audit.LogRequestObject: the decoded body completes the objectRef (a create's name) and is logged from level Request. */
export function auditRequestObject(ctx: Context, object: Record<string, unknown>): void {
  const audit = audits.get(ctx);
  if (!audit) return;
  const ref = audit.base.objectRef;
  const meta = object.metadata;
  if (ref && meta !== null && typeof meta === 'object') {
    const m = meta as Record<string, unknown>;
    for (const key of ['namespace', 'name', 'uid', 'resourceVersion'] as const) {
      const value = m[key];
      if (!ref[key] && typeof value === 'string' && value !== '') ref[key] = value;
    }
  }
  if (audit.wantsRequest) audit.requestObject = object;
}

/**
 * kube's audit.LogResponseObject: a Status answer gives the event its responseStatus at any level; the object is
 * logged at level RequestResponse.
 */
export function auditResponseObject(ctx: Context, object: object): void {
  const audit = audits.get(ctx);
  if (!audit) return;
  const o = object as Record<string, unknown>;
  if (o.kind === 'Status' && typeof o.code === 'number') {
    audit.responseStatus = {
      metadata: {},
      ...(o.status ? { status: String(o.status) } : {}),
      ...(o.message ? { message: String(o.message) } : {}),
      ...(o.reason ? { reason: String(o.reason) } : {}),
      ...(o.details ? { details: o.details } : {}),
      code: o.code,
    };
  }
  if (audit.wantsResponse) audit.responseObject = object;
}

/** An error that is no ApiError: the request's last stage is Panic. */
export function auditPanic(ctx: Context, err: unknown): void {
  const audit = audits.get(ctx);
  if (audit) audit.panic = `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`;
}

export function auditUser(user: UserInfo): AuditUserInfo {
  return {
    username: user.username,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length ? { groups: user.groups } : {}),
    ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
  };
}
