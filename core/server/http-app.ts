import Koa from 'koa';
import type { Context, Middleware } from 'koa';
import { Readable } from 'node:stream';
import { ApiError, errors } from '../contracts/api-error.js';
import { requestNamespace, type RequestInfo } from '../request/request-info.js';
import { requestInfoOf, requestQueryOf } from './request-info-state.js';
import { requestDeadlineMs } from '../request/request-deadline.js';
import { instrumentRequests, markServed } from '../metrics/request-metrics.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';
import { authenticateWithAll, type Authenticator, type UserInfo } from '../contracts/authenticator.js';
import type { AuthorizationAttributes, AuthorizationChain, AuthorizationResult } from '../contracts/authorizer.js';
import type { ServerRoute } from '../contracts/route.js';
import { routeResource, type ResourceRouterDeps } from './resource-router.js';
import { forbidden } from './forbidden-message.js';
import { impersonatedUser } from './impersonation.js';
import { compressResponses } from './response-compression.js';
import { jsonMediaType, type CodecSet } from '../codec/codec-set.js';
import type { Codec } from '../contracts/codec.js';
import { negotiateError } from '../codec/negotiation.js';
import { standardResponseHeaders } from './response-headers.js';
import { headerBytesAsLatin1 } from './header-bytes.js';
import type { Auditor } from '../audit/auditor.js';
import { addRequestAuditAnnotation, auditImpersonatedUser, auditPanic, auditResponseObject } from '../audit/request-audit.js';
import { anonymousUser } from './anonymous-access.js';
import type { AggregationProxy } from './aggregation-proxy.js';
import { log } from '../../lib/log/logger.js';
import { logRequests } from './request-log.js';
import type { RequestLimiter } from './flowcontrol/request-limiter.js';
import { connectionSocket } from './http2-requests.js';
import { selectorRequirements } from '../../lib/k8s/authorization-selectors.js';

export interface HttpAppDeps extends ResourceRouterDeps {
  authenticators: Authenticator[];
  /** The server's authorizers, asked in order. */
  authorization: AuthorizationChain;
  routes: ServerRoute[];
  /** Audits requests when the server has an audit policy and backends. */
  auditor?: Auditor;
  /** `--anonymous-auth`: whether a request without credentials is served as `system:anonymous`. */
  anonymousAuth: boolean;
  /** Sends the requests of group-versions aggregated API servers serve to them. */
  aggregation?: AggregationProxy;
  metrics: ServerMetrics;
  /** Priority and fairness, or max-in-flight: between impersonation and authorization. */
  limiter?: RequestLimiter;
  /** Refuses requests while the server shuts down and tracks those in flight (see graceful-shutdown.ts). */
  shutdownFilter?: Middleware;
}

/** The type koa gives an object body. */
const koaJsonType = 'application/json; charset=utf-8';

/**
 * The koa application: kube's standard headers → the request log → header bytes as Latin-1 → response compression →
 * audit's last stage → request metrics (outside error rendering: they count the final status) → error rendering →
 * graceful shutdown → request info and deadline → authentication → audit → impersonation → priority and fairness (or
 * max-in-flight) → authorization → the aggregation proxy or routing.
 */
export function createHttpApp(deps: HttpAppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  app.on('error', logUnlessDisconnect);
  const exact = new Map<string, ServerRoute>();
  const prefixes: ServerRoute[] = [];
  for (const r of deps.routes) {
    if (r.path.endsWith('/*')) prefixes.push(r);
    else exact.set(r.path, r);
  }
  prefixes.sort((a, b) => b.path.length - a.path.length);

  app.use(standardResponseHeaders);
  app.use(logRequests); // inside the Audit-Id, outside everything that decides the response code
  app.use(headerBytesAsLatin1); // after compression and error rendering have set the final body
  app.use(compressResponses); // outermost but for the headers, so error Status bodies are compressed by the same rule
  const { auditor } = deps;
  if (auditor) app.use(auditor.filter); // outside error rendering: the event has the Status answered
  app.use(instrumentRequests(deps.metrics));
  app.use(renderErrors(deps.codecs));
  if (deps.shutdownFilter) app.use(deps.shutdownFilter); // before authentication, as kube's WithWaitGroup
  app.use(async (ctx) => {
    const query = requestQueryOf(ctx);
    const info = requestInfoOf(ctx);
    const deadline = requestDeadlineMs(info, query);
    let authenticated: UserInfo;
    try {
      authenticated = await authenticate(ctx, deps);
    } catch (err) {
      auditor?.authenticationFailed(ctx, info);
      throw err;
    }
    auditor?.begin(ctx, info, authenticated);
    const user = await impersonatedUser(ctx.req, authenticated, deps.authorization);
    if (user !== authenticated) auditImpersonatedUser(ctx, user);
    if (deps.limiter) return deps.limiter.serve(ctx, info, query, user, () => serve(ctx, info, query, user, deadline));
    return serve(ctx, info, query, user, deadline);
  });

  /** Authorization, then the aggregation proxy or routing. `deadline`: the request's, ms (none for a long-running request). */
  async function serve(ctx: Context, info: RequestInfo, query: URLSearchParams, user: UserInfo, deadline: number | undefined): Promise<void> {
    // a server without authentication (a library server's default) lets everyone do everything
    const authorizes = deps.authenticators.length > 0;
    if (authorizes) await authorize(ctx, user, info, deps.authorization);
    const proxied = deps.aggregation?.target(ctx.path);
    if (proxied) {
      markServed(ctx);
      return deps.aggregation!.proxy(ctx, info, user, proxied, deadline);
    }
    if (info.isResourceRequest) {
      const authorizeVerb = async (verb: string) => {
        const attrs = authorizationAttributes(user, { ...info, verb });
        throwUnlessAllowed(attrs, await deps.authorization.authorize(attrs));
      };
      return routeResource(ctx, info, query, user, deps, authorizes ? authorizeVerb : undefined);
    }
    const route = exact.get(ctx.path) ?? exact.get(ctx.path.replace(/\/+$/, '')) ?? prefixes.find((r) => ctx.path.startsWith(r.path.slice(0, -1)));
    if (!route) throw errors.pathNotFound();
    markServed(ctx);
    if (!(route.methods ?? ['GET']).includes(ctx.method) && !(ctx.method === 'HEAD' && (route.methods ?? ['GET']).includes('GET'))) {
      throw errors.methodNotAllowed();
    }
    await route.handle(ctx);
    if (ctx.body !== undefined && ctx.body !== null && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body) && !(ctx.body instanceof Readable) && !ctx.response.is('text/*')) {
      const type = ctx.response.get('Content-Type');
      ctx.body = JSON.stringify(ctx.body);
      // koa types an object body as "application/json; charset=utf-8"; kube sends JSON without a charset.
      ctx.set('Content-Type', !type || type === koaJsonType ? 'application/json' : type);
    }
  }
  return app;
}

/**
 * kube's union authenticator, then its anonymous one: a request without credentials is `system:anonymous` when
 * `--anonymous-auth` allows it (authorization then decides what it may do, as RBAC's system:public-info-viewer
 * binding lets it read health and version), else 401.
 */
async function authenticate(ctx: Context, { authenticators, anonymousAuth }: HttpAppDeps): Promise<UserInfo> {
  const req = ctx.req;
  const user = await authenticateWithAll(authenticators, {
    headers: ctx.headers,
    // built on first use: only the request-header authenticator reads every value of repeated headers
    get headersDistinct() {
      return req.headersDistinct;
    },
    socket: connectionSocket(req),
  });
  if (user) return user;
  if (authenticators.length === 0 || anonymousAuth) return anonymousUser;
  throw errors.unauthorized();
}

/**
 * kube's authorization filter: the server's authorizers in order (the first allow or deny decides; without one the
 * request is forbidden with the reasons they gave), its decision and reason recorded as audit annotations.
 */
async function authorize(ctx: Context, user: UserInfo, info: RequestInfo, authorization: AuthorizationChain): Promise<void> {
  const attrs = authorizationAttributes(user, info);
  const result = await authorization.authorize(attrs);
  addRequestAuditAnnotation(ctx, 'authorization.k8s.io/decision', result.decision === 'allow' ? 'allow' : 'forbid');
  addRequestAuditAnnotation(ctx, 'authorization.k8s.io/reason', result.reason);
  throwUnlessAllowed(attrs, result);
}

function authorizationAttributes(user: UserInfo, info: RequestInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    // kube authorizes /namespaces/{name} in that namespace (a RoleBinding there may grant reading it)
    namespace: requestNamespace(info),
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
    // a list, watch or deletecollection's selectors (kube's AuthorizeWithSelectors)
    ...(info.fieldSelector !== undefined || info.labelSelector !== undefined ? selectorRequirements(info.fieldSelector, info.labelSelector) : {}),
  };
}

/** Throws kube's 403 unless the authorizers allowed (a 500 when one failed and none allowed, as kube). */
function throwUnlessAllowed(attrs: AuthorizationAttributes, result: AuthorizationResult): void {
  if (result.decision === 'allow') return;
  if (result.evaluationError !== undefined) throw errors.internal(result.evaluationError);
  throw forbidden(attrs, result.reason);
}

/**
 * Any error thrown below becomes a Status, in the codec Accept negotiates for it (kube's ErrorNegotiated), else as
 * JSON; unexpected errors are 500 and logged.
 */
function renderErrors(codecs: CodecSet) {
  return async (ctx: Context, next: () => Promise<unknown>): Promise<void> => {
    try {
      await next();
    } catch (err) {
      const apiError = err instanceof ApiError ? err : unexpected(ctx, err);
      if (ctx.respond === false && ctx.res.headersSent) {
        ctx.res.end();
        return;
      }
      ctx.respond = true;
      ctx.status = apiError.code;
      auditResponseObject(ctx, apiError.status);
      for (const [k, v] of Object.entries(apiError.headers)) ctx.set(k, v);
      const { body, contentType } = encodeStatus(negotiateError(ctx.get('accept'), codecs), apiError);
      ctx.body = body;
      ctx.set('Content-Type', contentType); // after the body, and without koa's "; charset=utf-8", as kube sends it
    }
  };
}

/** The Status in the codec, or as raw JSON without one or when the codec fails (kube's WriteRawJSON). */
function encodeStatus(codec: Codec | undefined, apiError: ApiError): { body: string | Buffer; contentType: string } {
  if (codec) {
    try {
      return { body: codec.encode(apiError.status), contentType: codec.mediaType };
    } catch (err) {
      log.error(`cannot encode a Status as ${codec.mediaType}`, { err });
    }
  }
  return { body: JSON.stringify(apiError.status), contentType: jsonMediaType };
}

/**
 * An error that is no ApiError is a bug in kapi: a 500 whose message names the request's Audit-Id, under which the
 * error is logged, and never the JavaScript error's own text (`x.find is not a function` tells a client nothing).
 * A SyntaxError from parsing input the codecs did not wrap stays a 400.
 */
function unexpected(ctx: Context, err: unknown): ApiError {
  if (err instanceof SyntaxError) return errors.badRequest(err.message);
  const auditId = ctx.response.get('Audit-Id');
  auditPanic(ctx, err);
  log.error('internal error', { auditID: auditId, err });
  return errors.internal(`unexpected error in kapi, logged with Audit-Id ${auditId}`);
}

/** Clients that hang up mid-response (watch closed, load generator stopped) are normal, not errors to log. */
function logUnlessDisconnect(err: NodeJS.ErrnoException): void {
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
  log.error('HTTP error', { err });
}
