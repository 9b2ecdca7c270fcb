import https from 'node:https';
import http from 'node:http';
import { isIP } from 'node:net';
import type { WebhookClientConfig } from './webhook-client-config.js';

/** A webhook call that did not produce a response: the text is Go's `Post "<url>": <cause>`, as kube reports it. */
export class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'WebhookCallError';
  }
}

export interface WebhookResponse {
  status: number;
  body: Buffer;
  /** The response's Content-Type header ('' when absent). */
  contentType: string;
  /** The response's Retry-After header, when it is a whole number of seconds. */
  retryAfterSeconds?: number;
}

/** Webhook responses larger than this are refused rather than buffered (a misbehaving webhook must not exhaust memory). */
const maxResponseBytes = 32 * 1024 * 1024;

/**
 * What a kubeconfig adds to a webhook call beyond admission's client config: a client certificate, a bearer token,
 * the name the serving certificate is checked against, and turning that check off.
 */
export interface WebhookCredentials {
  /** PEM client certificate and its key, presented in the TLS handshake. */
  clientCertPem?: string;
  clientKeyPem?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  bearerToken?: string;
  /** The name the serving certificate must be valid for (and SNI), instead of the URL's host. */
  tlsServerName?: string;
  /** kubeconfig's insecure-skip-tls-verify: the serving certificate is not verified. */
  insecureSkipTlsVerify?: boolean;
}

/** One keep-alive agent per CA bundle and TLS credentials, so repeated calls reuse connections and TLS sessions (no handshake per call). */
const agents = new Map<string, https.Agent>();

function agentFor(caBundle: string | undefined, credentials: WebhookCredentials): https.Agent {
  const { clientCertPem: cert, clientKeyPem: key, insecureSkipTlsVerify } = credentials;
  const agentKey = JSON.stringify([caBundle ?? '', cert ?? '', key ?? '', insecureSkipTlsVerify === true]);
  let agent = agents.get(agentKey);
  if (!agent) {
    const ca = caBundle ? Buffer.from(caBundle, 'base64').toString('utf8') : undefined;
    // HTTP/1.1 only, as kube's webhook client (it turns HTTP/2 off so calls spread over a webhook's replicas).
    agent = new https.Agent({
      keepAlive: true,
      maxSockets: 64,
      ...(ca ? { ca } : {}),
      ...(cert && key ? { cert, key } : {}),
      ...(insecureSkipTlsVerify ? { rejectUnauthorized: false } : {}),
    });
    agents.set(agentKey, agent);
  }
  return agent;
}

/** Where a request goes: the address dialled and the name its TLS certificate must be valid for. */
export interface Destination {
  /** What is dialled: an IP address or a host name (no brackets), and a port. */
  host: string;
  port: number;
  /** The name the server's certificate is verified against (and sent as SNI). */
  serverName: string;
}

/** Go's wording of a transport failure, so messages read as kube-apiserver's do. */
export function goCause(err: NodeJS.ErrnoException, to: Destination, req: { socket?: { localAddress?: string; localPort?: number } | null }): string {
  const hostPort = joinHostPort(to.host, to.port);
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${hostPort}: connect: connection refused`;
    case 'ECONNRESET': {
      // Node says "socket hang up" when the peer closed the connection cleanly: Go's net/http reports EOF.
      if (err.message === 'socket hang up') return 'EOF';
      const local = req.socket ? `${req.socket.localAddress}:${req.socket.localPort}->` : '';
      return `read tcp ${local}${hostPort}: read: connection reset by peer`;
    }
    case 'ENOTFOUND':
      return `dial tcp: lookup ${to.host}: no such host`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: ${hostnameError(err, to.serverName)}`;
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'HPE_INVALID_CONSTANT': {
      // not an HTTP status line: Go quotes the line it read
      const line = ((err as { rawPacket?: Buffer }).rawPacket?.toString('latin1') ?? '').split(/\r?\n/)[0];
      return `net/http: HTTP/1.x transport connection broken: malformed HTTP response ${JSON.stringify(line)}`;
    }
    default:
      return err.message;
  }
}

/** Go's net.JoinHostPort. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Go's x509 HostnameError for a certificate not valid for `serverName`, from Node's altname error: the certificate's
 * IP addresses when an IP address was asked for (Node: `IP: <ip> is not in the cert's list: 1.2.3.4`), else its DNS
 * names (Node: `Host: <name>. is not in the cert's altnames: IP Address:1.2.3.4, DNS:x`).
 */
function hostnameError(err: NodeJS.ErrnoException, serverName: string): string {
  const reason = (err as { reason?: string }).reason ?? '';
  const listed = (pattern: RegExp) => pattern.exec(reason)?.[1]?.split(', ').filter(Boolean) ?? [];
  if (isIP(serverName)) {
    const ips = listed(/cert's list: (.*)$/);
    if (!ips.length) return `x509: cannot validate certificate for ${serverName} because it doesn't contain any IP SANs`;
    return `x509: certificate is valid for ${ips.join(', ')}, not ${serverName}`;
  }
  const dnsNames = listed(/altnames: (.*)$/).filter((n) => n.startsWith('DNS:')).map((n) => n.slice('DNS:'.length));
  if (!dnsNames.length) return `x509: certificate is not valid for any names, but wanted to match ${serverName}`;
  return `x509: certificate is valid for ${dnsNames.join(', ')}, not ${serverName}`;
}

/** Go's rendering of the request URL: the configured URL and kube's `?timeout=<n>s` (ceil of the deadline in seconds). */
function requestUrl(rawUrl: string, timeoutMs: number): string {
  return `${rawUrl}${rawUrl.includes('?') ? '&' : '?'}timeout=${Math.max(1, Math.ceil(timeoutMs / 1000))}s`;
}

/** Parsed request URLs, per configured URL and timeout (a webhook is called with the same ones again and again). */
const parsedUrls = new Map<string, URL>();
const maxParsedUrls = 1024;

function parsedUrl(href: string): URL {
  let url = parsedUrls.get(href);
  if (!url) {
    url = new URL(href);
    if (parsedUrls.size >= maxParsedUrls) parsedUrls.clear();
    parsedUrls.set(href, url);
  }
  return url;
}

/** Finds where a webhook's `clientConfig.service` is dialled (core/contracts' ServiceResolver is one). */
export interface ServiceEndpointResolver {
  /**
   * An `https://host:port` URL of an endpoint of the Service's port (defaulted). What it throws fails the call, its
   * message the cause kube reports (`service "x" not found`).
   */
  resolveEndpoint(service: { namespace: string; name: string; port: number }): Promise<URL>;
}

type WebhookService = NonNullable<WebhookClientConfig['service']>;

/**
 * The URL kube's webhook client posts to for a `service`: `https://<name>.<namespace>.svc:<port>` and the path cleaned
 * as client-go's path.Join cleans it (`/` when none, no trailing slash).
 */
function serviceUrl(service: WebhookService): string {
  const path = service.path && service.path !== '/' ? service.path.replace(/\/+$/, '') : '/';
  return `https://${service.name}.${service.namespace}.svc:${service.port ?? 443}${path}`;
}

/** The request URL (with `?timeout=`) as kube renders it in errors, parsed; or the failure to parse it. */
function requestTarget(config: WebhookClientConfig, timeoutMs: number): { href: string; url: URL } | { error: string } {
  const configured = config.service ? serviceUrl(config.service) : config.url;
  if (!configured) return { error: 'webhook configuration must have either service or URL' };
  const href = requestUrl(configured, timeoutMs);
  try {
    return { href, url: parsedUrl(href) };
  } catch {
    return { error: `parse ${JSON.stringify(configured)}: invalid URL` };
  }
}

/** A URL's host and port (brackets off an IPv6 address; the scheme's port when none is written). */
function hostAndPort(url: URL): { host: string; port: number } {
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) || (url.protocol === 'http:' ? 80 : 443) };
}

/**
 * POSTs a JSON body to a webhook over HTTPS (plain HTTP is allowed for `http:` URLs, which only tests use) and
 * returns the raw answer. kube appends `?timeout=<n>s` to the URL so the webhook knows its deadline; so does this.
 * A `service` is reached as kube's webhook client reaches it: the URL names `<name>.<namespace>.svc` (so do the Host
 * header and the name the serving certificate must be valid for) while the connection goes to the endpoint
 * `services` finds. Transport failures, a Service without endpoints and the deadline throw `WebhookCallError`.
 */
export function postWebhook(
  config: WebhookClientConfig,
  body: unknown,
  timeoutMs: number,
  services: ServiceEndpointResolver,
  credentials: WebhookCredentials = {},
): Promise<WebhookResponse> {
  return callWebhook('POST', config, body, timeoutMs, services, credentials);
}

/** As postWebhook, for a GET without a body (an extension server reading an object from its front server). */
export function getWebhook(config: WebhookClientConfig, timeoutMs: number, credentials: WebhookCredentials = {}): Promise<WebhookResponse> {
  return callWebhook('GET', config, undefined, timeoutMs, noServiceResolver, credentials);
}

/** For calls to a URL, which never name a Service. */
const noServiceResolver: ServiceEndpointResolver = {
  resolveEndpoint: () => Promise.reject(new Error('no Service is resolved for this call')),
};

function callWebhook(
  method: 'GET' | 'POST',
  config: WebhookClientConfig,
  body: unknown,
  timeoutMs: number,
  services: ServiceEndpointResolver,
  credentials: WebhookCredentials,
): Promise<WebhookResponse> {
  const target = requestTarget(config, timeoutMs);
  if ('error' in target) return Promise.reject(new WebhookCallError(target.error, false));
  const { href, url } = target;
  const payload = method === 'POST' ? Buffer.from(JSON.stringify(body)) : undefined;
  // Go's *url.Error names the method so: `Post "<url>": <cause>`
  const call = `${method === 'POST' ? 'Post' : 'Get'} "${href}"`;
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    const fail = (message: string, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      reject(new WebhookCallError(`${call}: ${message}`, timedOut));
    };
    // One deadline for the whole exchange (resolving, connect, TLS, response), as Go's request context.
    const timer = setTimeout(() => fail('context deadline exceeded', true), timeoutMs);
    const send = (to: Destination, hostHeader?: string) => {
      if (settled) return;
      const options: https.RequestOptions = {
        method,
        host: to.host,
        port: to.port,
        path: url.pathname + url.search,
        headers: {
          ...(hostHeader ? { Host: hostHeader } : {}),
          ...(credentials.bearerToken ? { Authorization: `Bearer ${credentials.bearerToken}` } : {}),
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
          Accept: 'application/json, */*',
        },
        ...(secure ? { agent: agentFor(config.caBundle, credentials), ...(to.serverName !== to.host ? { servername: to.serverName } : {}) } : {}),
      };
      const request = (secure ? https : http).request(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxResponseBytes) fail(`response body larger than ${maxResponseBytes} bytes`, false);
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const retryAfter = Number(res.headers['retry-after']);
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            contentType: res.headers['content-type'] ?? '',
            ...(Number.isInteger(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
          });
        });
        res.on('error', (err) => fail(goCause(err, to, request), false));
      });
      req = request;
      request.on('error', (err) => fail(goCause(err, to, request), false));
      request.end(payload);
    };
    const service = config.service;
    if (!service) {
      const direct = hostAndPort(url);
      send({ ...direct, serverName: credentials.tlsServerName || direct.host });
      return;
    }
    const port = service.port ?? 443;
    // Go sends the URL's host as written, the port included (URL.host drops a default one)
    services.resolveEndpoint({ namespace: service.namespace, name: service.name, port }).then(
      (endpoint) => send({ ...hostAndPort(endpoint), serverName: url.hostname }, `${url.hostname}:${port}`),
      (err: Error) => fail(err.message, false),
    );
  });
}

/** client-go's NewGenericServerResponse text for a non-2xx answer without a Status body. */
function genericServerResponse(code: number, serverMessage: string): string {
  switch (code) {
    case 409:
      return 'the server reported a conflict';
    case 404:
      return 'the server could not find the requested resource';
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
      return serverMessage;
    case 406:
      return !serverMessage || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage;
    case 415:
      return serverMessage;
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    default:
      if (code >= 500) return `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
      return `the server responded with the status code ${code} but did not return more information`;
  }
}

/** At most this much of an unexpected body is quoted in an error (client-go's maxUnstructuredResponseTextBytes). */
const maxUnstructuredResponseTextBytes = 2048;

/**
 * What client-go's rest client makes of an answer before decoding it (Result.Into): undefined for a 2xx answer with
 * a body; else the error text — a Status body's message, client-go's generic text for the status code, or
 * `0-length response with status code: 200 and content type: application/json`.
 */
export function restResultError(res: WebhookResponse): string | undefined {
  const contentType = res.contentType || 'application/json';
  if (res.status >= 200 && res.status <= 206) {
    return res.body.length ? undefined : `0-length response with status code: ${res.status} and content type: ${contentType}`;
  }
  const status = statusBody(res.body);
  if (status) return status;
  const media = res.contentType.split(';')[0].trim().toLowerCase();
  const isText = !res.contentType || media.startsWith('text/');
  const message = isText ? res.body.subarray(0, maxUnstructuredResponseTextBytes).toString('utf8').trim() : 'unknown';
  return genericServerResponse(res.status, message);
}

/** A failure Status in a body (kube prefers its message over the generic text), else undefined. */
function statusBody(body: Buffer): string | undefined {
  if (!body.length) return undefined;
  try {
    const value = JSON.parse(body.toString('utf8')) as { kind?: unknown; apiVersion?: unknown; status?: unknown; message?: unknown };
    const versionOk = value.apiVersion === undefined || value.apiVersion === 'v1';
    if (value?.kind === 'Status' && versionOk && value.status === 'Failure') return typeof value.message === 'string' ? value.message : '';
  } catch {
    // not JSON: the generic text
  }
  return undefined;
}
