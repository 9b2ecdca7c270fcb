import type { Context, Next } from 'koa';
import type { ServerResponse } from 'node:http';
import type { AuditBackend, AuditPolicy, AuditStage } from '../contracts/audit.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { RequestInfo } from '../request/request-info.js';
import { isLongRunning } from '../request/long-running.js';
import { PolicyRuleEvaluator } from './policy-rule-evaluator.js';
import { auditUser, requestAuditOf, RequestAudit, setRequestAudit } from './request-audit.js';
import { auditEvent, eventBase } from './audit-event.js';
import { log } from '../../lib/log/logger.js';

/**
 * kube's audit filters: `begin` after authentication (the policy decides the request's level; RequestReceived is
 * sent), `authenticationFailed` for a request refused there, and `filter`, the middleware that sends the last stage
 * once the response (an error's Status included) is decided. Events go to every backend; a backend that throws is
 * logged, never the request's failure.
 */
export class Auditor {
  private readonly evaluator: PolicyRuleEvaluator;

  constructor(
    policy: AuditPolicy,
    private readonly backends: readonly AuditBackend[],
  ) {
    this.evaluator = new PolicyRuleEvaluator(policy);
  }

  /** The middleware, placed outside error rendering so it sees the final status and Status. */
  readonly filter = async (ctx: Context, next: Next): Promise<void> => {
    await next();
    const audit = requestAuditOf(ctx);
    if (!audit) return;
    const code = ctx.respond === false ? ctx.res.statusCode : ctx.status;
    if (audit.failedAuthentication !== undefined) return this.send(audit, 'ResponseStarted', code);
    if (audit.panic !== undefined) return this.send(audit, 'Panic');
    if (audit.longRunning && !audit.sent.has('ResponseStarted')) this.send(audit, 'ResponseStarted', code);
    this.send(audit, 'ResponseComplete', code);
    await this.caughtUp();
  };

  /** An authenticated request: its level by the policy; at a level above None, RequestReceived is sent. */
  begin(ctx: Context, info: RequestInfo, user: UserInfo): void {
    const config = this.evaluator.evaluate(info, user);
    if (config.level === 'None') return;
    const longRunning = isLongRunning(info);
    const audit = new RequestAudit(config, eventBase(ctx, info, auditUser(user)), longRunning);
    setRequestAudit(ctx, audit);
    this.send(audit, 'RequestReceived');
    if (longRunning) this.onHeaders(ctx.res, (code) => this.send(audit, 'ResponseStarted', code));
  }

  /**
   * kube's WithFailedAuthenticationAudit: the request is audited as the policy says for a request of no user, with
   * one event, ResponseStarted, whose status names the credentials tried.
   */
  authenticationFailed(ctx: Context, info: RequestInfo): void {
    const config = this.evaluator.evaluate(info, undefined);
    if (config.level === 'None') return;
    setRequestAudit(ctx, new RequestAudit(config, eventBase(ctx, info, {}), false, attemptedMethods(ctx)));
  }

  /** Delivers what the backends hold (awaited when the server closes, after the last request). */
  async shutdown(): Promise<void> {
    for (const b of this.backends) await b.shutdown?.();
  }

  /** Waits for the backends that hold too much (their `backpressure`); a failing one is logged by its own writes. */
  private async caughtUp(): Promise<void> {
    const waits = this.backends.map((b) => b.backpressure?.()).filter((w) => w !== undefined);
    if (waits.length > 0) await Promise.allSettled(waits);
  }

  private send(audit: RequestAudit, stage: AuditStage, code?: number): void {
    if (audit.sent.has(stage)) return;
    audit.sent.add(stage);
    if (audit.config.omitStages.has(stage)) return;
    const event = auditEvent(audit, stage, code);
    for (const b of this.backends) {
      try {
        b.processEvent(event);
      } catch (err) {
        log.error(`Error in audit plugin '${b.name}' affecting 1 audit events: ${(err as Error).message}`);
      }
    }
  }

  /** Calls `then` with the status code when a handler writes the response's head itself (a watch). */
  private onHeaders(res: ServerResponse, then: (code: number) => void): void {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      then(args[0] as number);
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
  }
}

/** kube's getAuthMethods: "Authentication failed, attempted: bearer", or '' when the request carried no credentials. */
function attemptedMethods(ctx: Context): string {
  const methods: string[] = [];
  const auth = ctx.get('authorization').trim();
  if (/^basic\s+\S/i.test(auth)) methods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0]!.toLowerCase() === 'bearer') methods.push('bearer');
  if (new URLSearchParams(ctx.querystring).get('access_token')?.trim()) methods.push('access_token');
  const socket = ctx.req.socket as { getPeerCertificate?: () => { raw?: Buffer } };
  if (socket.getPeerCertificate?.()?.raw) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : '';
}
