import type { Context } from 'koa';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../contracts/api-error.js';
import { StatusReason } from '../contracts/status.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { ServiceResolver } from '../contracts/service-resolver.js';
import type { RemoteAPIService } from '../contracts/api-services.js';
import type { RequestInfo } from '../request/request-info.js';
import { answerPlainText } from './plain-text-answer.js';
import { goCompare } from '../../lib/go/strings.js';
import { goCause } from '../../lib/webhook/webhook-client.js';
import { backendTransport, type BackendCallHandlers, type BackendTransport, type ProxyClientCertificate, type SwitchedProtocols } from '../../lib/aggregator/backend-transport.js';
import { authProxyHeaders, forwardedHeaders, isClientIdentityHeader } from '../../lib/aggregator/auth-proxy-headers.js';
import { log } from '../../lib/log/logger.js';
import { requestQueryOf } from './request-info-state.js';
import { upgradeConnectionOf, type UpgradeConnection } from './upgrade-requests.js';
import { hasBody } from './has-body.js';

/** An APIService that names a service (the registry's object, which its transport is cached by), and whether its Available condition is True. */
export interface ProxiedApiService {
  remote: RemoteAPIService;
  available: boolean;
}

/** kube's aggregatedDiscoveryTimeout: a group-version's discovery document (`/apis/<group>/<version>`) must come faster. */
const discoveryTimeoutMs = 5_000;

/**
 * kube's aggregator proxy (kube-aggregator's proxyHandler): a request for a group-version an APIService serves from a
 * `service` goes to one endpoint of that Service, after the front authenticated and authorized it, carrying the user
 * in X-Remote-* headers (the client's own identity headers dropped) and streamed both ways. Failures are answered as
 * kube's handler answers them: plain text, not Status bodies (`service unavailable` while the APIService is not
 * Available or its Service has no endpoint; the transport's error text when the backend cannot be reached).
 */
export class AggregationProxy {
  constructor(
    private readonly lookup: (group: string, version: string) => ProxiedApiService | undefined,
    private readonly services: ServiceResolver,
    private readonly client: ProxyClientCertificate | undefined,
  ) {}

  /** The APIService a path under `/apis/<group>/<version>` is proxied for, if one with a service serves that group-version. */
  target(path: string): ProxiedApiService | undefined {
    const parts = path.split('/');
    if (parts[1] !== 'apis' || !parts[2] || !parts[3]) return undefined;
    return this.lookup(parts[2], parts[3]);
  }

  /** `deadline`: the request's (core/request/request-deadline.ts), ms; none for a long-running request. */
  async proxy(ctx: Context, info: RequestInfo, user: UserInfo, apiService: ProxiedApiService, deadline: number | undefined): Promise<void> {
    if (!apiService.available) return answerPlainText(ctx, 503, 'service unavailable');
    let endpoint: URL;
    try {
      endpoint = await this.services.resolveEndpoint(apiService.remote.service);
    } catch (err) {
      const { service } = apiService.remote;
      log.error(`error resolving ${service.namespace}/${service.name}: ${(err as Error).message}`);
      return answerPlainText(ctx, 503, 'service unavailable');
    }
    await forward(ctx, info, user, deadline, endpoint, backendTransport(apiService.remote, this.client));
  }
}

/** `/apis/<group>/<version>` itself: the discovery document of the group-version. */
function isDiscovery(info: RequestInfo): boolean {
  return !info.isResourceRequest && info.path.replace(/^\/+|\/+$/g, '').split('/').length === 3;
}

/** Go's url.Values.Encode: keys sorted, each value escaped as a query component (space as `+`). */
function goQuery(query: URLSearchParams): string {
  if (query.size === 0) return '';
  const escape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
  const keys = [...new Set(query.keys())].sort(goCompare);
  return keys.flatMap((k) => query.getAll(k).map((v) => `${escape(k)}=${escape(v)}`)).join('&');
}

/**
 * Sends the request to the backend and its answer to the client. Until the backend answers, koa still owns the
 * response (failures are answered through it); from then on the answer is piped as it comes.
 */
function forward(ctx: Context, info: RequestInfo, user: UserInfo, deadline: number | undefined, endpoint: URL, transport: BackendTransport): Promise<void> {
  const req = ctx.req;
  const res = ctx.res;
  const query = requestQueryOf(ctx);
  const encodedQuery = goQuery(query);
  const host = endpoint.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(endpoint.port) || 443;
  const upgrade = upgradeConnectionOf(req);
  const headers = authProxyHeaders(user, forwardedHeaders(req.headers, isNotForwardedFromClient));
  // hop-by-hop, but what asks the backend to switch protocols, as kube's upgrade-aware proxy sends them
  if (upgrade) Object.assign(headers, { connection: 'Upgrade', upgrade: req.headers.upgrade });
  headers['x-forwarded-for'] = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  // The request's audit ID goes with it, as kube's aggregator sends it: the backend logs and answers under the same one.
  headers['audit-id'] = ctx.response.get('Audit-Id');
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`; // Go's, the port written even when it is 443
  const path = ctx.path + (encodedQuery ? `?${encodedQuery}` : '');
  const serverName = transport.serverName;

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const settle = (error?: ApiError) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      if (error) reject(error);
      else resolve();
    };
    /** The exchange failed: before the backend answered, the client gets `answer`; after, the connection just ends. */
    const fail = (answer: { plainText: string } | { status: ApiError }) => {
      if (settled) return;
      call.abort();
      if (ctx.respond === false) {
        res.destroy(); // mid-stream: the client sees the response end, as when kube's handler is aborted
        settle();
      } else if ('status' in answer) {
        settle(answer.status);
      } else {
        answerPlainText(ctx, 503, answer.plainText);
        settle();
      }
    };
    const handlers: BackendCallHandlers = {
      response: (answer) => {
        if (settled) return;
        ctx.respond = false;
        res.statusCode = answer.status;
        const answerHeaders = forwardedHeaders(answer.headers);
        for (const name in answerHeaders) res.setHeader(name, answerHeaders[name]!);
        // a watch's headers go out before its first event; other answers' go with their first bytes (one TLS write less)
        if (deadline === undefined) res.flushHeaders();
        answer.body.pipe(res);
        answer.body.on('end', () => settle());
        answer.body.on('error', () => fail({ plainText: '' }));
      },
      error: (err, socket) => {
        if (settled) return;
        const cause = goCause(err, { host, port, serverName }, { socket });
        log.error(`error while proxying request to ${serverName}: ${cause}`);
        fail({ plainText: cause });
      },
    };
    const method = req.method ?? 'GET';
    const call = upgrade
      ? transport.upgrade(host, port, method, path, authority, headers, {
          ...handlers,
          // Switched: the connection is the tunnel's now, and outlives the request's deadline (as a hijacked one in kube).
          switched: (answer) => {
            if (settled) return void answer.socket.destroy();
            for (const t of timers) clearTimeout(t);
            ctx.respond = false;
            res.statusCode = 101;
            res.detachSocket(upgrade.socket as Socket);
            void tunnel(upgrade, answer).then(() => settle());
          },
        })
      : transport.request(host, port, method, path, authority, headers, hasBody(req) ? req : undefined, handlers);
    if (deadline !== undefined) timers.push(setTimeout(() => fail({ status: requestTimeout() }), deadline));
    if (isDiscovery(info)) timers.push(setTimeout(() => fail({ plainText: 'context deadline exceeded' }), discoveryTimeoutMs));
    // The client went away: so does the request to the backend.
    res.on('close', () => {
      if (settled) return;
      call.abort();
      settle();
    });
  });
}

/** Writes the backend's 101 to the client as it came, then passes bytes both ways until either side closes. */
function tunnel(client: UpgradeConnection, backend: SwitchedProtocols): Promise<void> {
  return new Promise((resolve) => {
    const end = () => {
      client.socket.destroy();
      backend.socket.destroy();
      resolve();
    };
    // a side that went away before the switch has closed already: it would never say so again
    if (client.socket.destroyed || backend.socket.destroyed) return end();
    for (const socket of [client.socket, backend.socket]) socket.once('close', end).on('error', end);
    const lines = [`HTTP/1.1 101 ${backend.statusMessage}`];
    for (let i = 0; i + 1 < backend.rawHeaders.length; i += 2) lines.push(`${backend.rawHeaders[i]}: ${backend.rawHeaders[i + 1]}`);
    client.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (backend.head.length) client.socket.write(backend.head);
    if (client.head.length) backend.socket.write(client.head);
    client.socket.pipe(backend.socket);
    backend.socket.pipe(client.socket);
  });
}

/** The client's headers that do not go to the backend besides hop-by-hop ones: Host (the backend's authority replaces it) and identity. */
function isNotForwardedFromClient(name: string): boolean {
  return name === 'host' || isClientIdentityHeader(name);
}

/** kube's timeout filter's answer when a request outlives its deadline. */
function requestTimeout(): ApiError {
  return new ApiError(504, StatusReason.Timeout, 'Timeout: request did not complete within requested timeout - context deadline exceeded', {});
}
