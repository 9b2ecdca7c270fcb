import Koa from 'koa';
import type { Context } from 'koa';
import type { TLSSocket } from 'node:tls';
import { ApiError, errors } from '../contracts/api-error.js';
import { parseRequestInfo, type RequestInfo } from '../request/request-info.js';
import type { Authenticator, UserInfo } from '../contracts/authenticator.js';
import type { AuthorizationAttributes, Authorizer } from '../contracts/authorizer.js';
import type { ServerRoute } from '../contracts/route.js';
import { routeResource, type ResourceRouterDeps } from './resource-router.js';
import { forbiddenError } from './forbidden-message.js';
import { compressResponses } from './response-compression.js';
import { jsonMediaType, type CodecSet } from '../codec/codec-set.js';
import type { Codec } from '../contracts/codec.js';
import { negotiateError } from '../codec/negotiation.js';
import { standardResponseHeaders } from './response-headers.js';
import { headerBytesAsLatin1 } from './header-bytes.js';

export interface HttpAppDeps extends ResourceRouterDeps {
  authenticators: Authenticator[];
  authorizers: Authorizer[];
  routes: ServerRoute[];
}

/** The type koa gives an object body. */
const koaJsonType = 'application/json; charset=utf-8';

/** Who a request without credentials is (kube's anonymous authenticator); authorization decides what it may do. */
const anonymous: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The koa application: kube's standard headers → header bytes as Latin-1 → response compression → error rendering → request info → authentication → authorization → routing. */
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
  app.use(headerBytesAsLatin1); // after compression and error rendering have set the final body
  app.use(compressResponses); // outermost but for the headers, so error Status bodies are compressed by the same rule
  app.use(renderErrors(deps.codecs));
  app.use(async (ctx) => {
    const query = new URLSearchParams(ctx.querystring);
    const info = parseRequestInfo(ctx.method, ctx.path, query);
    const user = await authenticate(ctx, deps.authenticators);
    // a server without authentication (a library server's default) lets everyone do everything
    if (deps.authenticators.length > 0) await authorize(user, info, deps.authorizers);
    if (info.isResourceRequest) return routeResource(ctx, info, query, user, deps);
    const route = exact.get(ctx.path) ?? exact.get(ctx.path.replace(/\/+$/, '')) ?? prefixes.find((r) => ctx.path.startsWith(r.path.slice(0, -1)));
    if (!route) throw errors.pathNotFound();
    if (!(route.methods ?? ['GET']).includes(ctx.method) && !(ctx.method === 'HEAD' && (route.methods ?? ['GET']).includes('GET'))) {
      throw errors.methodNotAllowed();
    }
    await route.handle(ctx);
    if (ctx.body !== undefined && ctx.body !== null && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body) && !ctx.response.is('text/*')) {
      const type = ctx.response.get('Content-Type');
      ctx.body = JSON.stringify(ctx.body);
      // koa types an object body as "application/json; charset=utf-8"; kube sends JSON without a charset.
      ctx.set('Content-Type', !type || type === koaJsonType ? 'application/json' : type);
    }
  });
  return app;
}

async function authenticate(ctx: Context, authenticators: Authenticator[]): Promise<UserInfo> {
  const req = { headers: ctx.headers, socket: ctx.req.socket as TLSSocket };
  // kube's union authenticator: one that refuses the credentials does not stop the others from accepting them.
  let refused: unknown;
  for (const a of authenticators) {
    try {
      const user = await a.authenticate(req);
      if (user) return user;
    } catch (err) {
      refused ??= err;
    }
  }
  if (refused !== undefined) throw refused;
  return anonymous;
}

/**
 * Asks the authorizers in order (kube's union authorizer): the first allow or deny decides; without one the request is
 * forbidden, with the reasons they gave (RBAC's missing roles, AlwaysDeny's text) one a line after kube's message.
 */
async function authorize(user: UserInfo, info: RequestInfo, authorizers: Authorizer[]): Promise<void> {
  const attrs: AuthorizationAttributes = {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    // kube authorizes /namespaces/{name} in that namespace (a RoleBinding there may grant reading it)
    namespace: info.resource === 'namespaces' && !info.namespace ? info.name : info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
  const reasons: string[] = [];
  for (const a of authorizers) {
    const { decision, reason } = await a.authorize(attrs);
    if (decision === 'allow') return;
    if (decision === 'deny') throw forbiddenError(attrs, reason);
    if (reason) reasons.push(reason);
  }
  throw forbiddenError(attrs, reasons.join('\n'));
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
      const apiError = err instanceof ApiError ? err : unexpected(err, ctx.response.get('Audit-Id'));
      if (ctx.respond === false && ctx.res.headersSent) {
        ctx.res.end();
        return;
      }
      ctx.respond = true;
      ctx.status = apiError.code;
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
      console.error(`kapi: cannot encode a Status as ${codec.mediaType}:`, err);
    }
  }
  return { body: JSON.stringify(apiError.status), contentType: jsonMediaType };
}

/**
 * An error that is no ApiError is a bug in kapi: a 500 whose message names the request's Audit-Id, under which the
 * error is logged, and never the JavaScript error's own text (`x.find is not a function` tells a client nothing).
 * A SyntaxError from parsing input the codecs did not wrap stays a 400.
 */
function unexpected(err: unknown, auditId: string): ApiError {
  if (err instanceof SyntaxError) return errors.badRequest(err.message);
  console.error(`kapi: internal error (Audit-Id ${auditId}):`, err);
  return errors.internal(`unexpected error in kapi, logged with Audit-Id ${auditId}`);
}

/** Clients that hang up mid-response (watch closed, load generator stopped) are normal, not errors to log. */
function logUnlessDisconnect(err: NodeJS.ErrnoException): void {
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
  console.error('kapi: HTTP error:', err);
}
