import https from 'node:https';
import http2 from 'node:http2';
import tls from 'node:tls';
import type { Duplex, Readable } from 'node:stream';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { requestStream } from '../http2/client-request.js';

/** What an APIService with a `service` says about reaching its aggregated API server. */
export interface AggregatedBackend {
  /** The APIService's name (`<version>.<group>`). */
  name: string;
  service: { namespace: string; name: string; port: number };
  /** `spec.caBundle` decoded: the PEM CA certificates the server's certificate must chain to (absent: the system's). */
  caBundle?: string;
  /** `spec.insecureSkipTLSVerify`. */
  insecureSkipTLSVerify?: boolean;
}

/** The client certificate the front presents to aggregated API servers (`--proxy-client-cert-file`/`--proxy-client-key-file`). */
export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

/** The name an aggregated API server's certificate must be valid for, as kube's aggregator verifies it: `<name>.<namespace>.svc`. */
export function backendServerName(backend: AggregatedBackend): string {
  return `${backend.service.name}.${backend.service.namespace}.svc`;
}

/** A backend's answer: its status, headers (HTTP/2's pseudo-headers included) and body as it streams. */
export interface BackendResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** One request in flight to a backend. */
export interface BackendCall {
  /** The client is gone or the deadline passed: the stream is reset (HTTP/2) or the request destroyed (HTTP/1.1). */
  abort(): void;
}

export interface BackendCallHandlers {
  response(answer: BackendResponse): void;
  /** The request failed before or while answering; `socket` is the connection's, when there was one. */
  error(err: NodeJS.ErrnoException, socket: { localAddress?: string; localPort?: number } | null): void;
}

/** A backend's 101: its status line and header lines as received, the connection, and what followed the headers. */
export interface SwitchedProtocols {
  statusMessage: string;
  rawHeaders: string[];
  socket: Duplex;
  head: Buffer;
}

export interface UpgradeCallHandlers extends BackendCallHandlers {
  /** The backend switched protocols: the connection is the caller's now. (Any other answer goes to `response`.) */
  switched(answer: SwitchedProtocols): void;
}

/**
 * The backend did not process the request (HTTP/2: its stream was refused, past the last stream a GOAWAY let through,
 * or the connection was already going away): it may be sent again.
 */
type OnUnprocessed = () => void;

/** A backend endpoint reached over HTTP/2, or known to speak HTTP/1.1 only. */
type Connection = { protocol: 'h2'; session: http2.ClientHttp2Session } | { protocol: 'http/1.1' };

/** An endpoint's connection while it is being opened, and once it is (so a request need not wait a microtask for it). */
interface ConnectionEntry {
  pending: Promise<Connection>;
  ready?: Connection;
}

/**
 * session.request's options, made once: a bodiless request's HEADERS frame ends its stream (no empty DATA frame after
 * it, as Go's transport sends it); the priority fields are Node's defaults, given so Node has none to add to its copy.
 */
const priorityDefaults = { weight: 16, parent: 0, exclusive: false, silent: false };
const headersOnly: http2.ClientSessionRequestOptions = { ...priorityDefaults, endStream: true };
const headersThenBody: http2.ClientSessionRequestOptions = { ...priorityDefaults, endStream: false };

/** A connection without a request for this long is closed (Go's http.Transport IdleConnTimeout, as kube's). */
const idleTimeoutMs = 90_000;
/**
 * Go's http2 Transport's receive windows: 4 MiB a stream (how much of an answer may wait unread in the front), 1 GiB
 * for the connection (so one slow reader never stalls the other streams). Node's 64 KiB would make every large list
 * through the proxy wait for a round trip per 64 KiB.
 */
const streamWindowBytes = 4 * 1024 * 1024;
/**
 * Go's http2 Transport takes answers whose header list is up to 10 MiB, and sends requests' as large as the server
 * allows (a kube backend: 1 MiB). Node's client would refuse to send more than 64 KiB of header block (a user with
 * thousands of groups, in X-Remote-Group) or to read an answer of more than 128 header fields (hundreds of warnings).
 * Each field counts 32 bytes besides its name and value.
 */
const headerListBytes = 10 * 1024 * 1024;
const connectionWindowBytes = 1024 * 1024 * 1024;

/**
 * How the front reaches the aggregated API servers of one TLS configuration, as kube's aggregator configures its
 * transport per APIService: the server's certificate verified against `caBundle` for `<name>.<namespace>.svc` (sent
 * as SNI too) unless `insecureSkipTLSVerify`, and the front-proxy client certificate presented. Each endpoint is
 * spoken to over one HTTP/2 connection, its requests and watches multiplexed on it, as kube's aggregator does; an
 * endpoint whose TLS does not offer `h2` (ALPN) gets HTTP/1.1 over kept-alive connections instead. A connection that
 * ends (GOAWAY, an error, idle) is forgotten and opened again on the next request.
 */
export class BackendTransport {
  private readonly tls: tls.ConnectionOptions;
  private readonly connections = new Map<string, ConnectionEntry>();
  /** For HTTP/1.1 backends, and for the aggregation layer's own GETs. */
  readonly agent: https.Agent;

  constructor(
    readonly serverName: string,
    insecure: boolean,
    ca: string | undefined,
    client: ProxyClientCertificate | undefined,
  ) {
    this.tls = { servername: serverName, rejectUnauthorized: !insecure, ...(ca ? { ca } : {}), ...(client ? { cert: client.certPem, key: client.keyPem } : {}) };
    this.agent = new https.Agent({ keepAlive: true, maxSockets: 256, ...this.tls });
  }

  /**
   * Sends a request to `host:port`. `headers` are the message's own (no pseudo-headers, no Host: `authority` is it);
   * the call takes them over (the transport adds what its protocol needs). `body` is what follows the headers, none
   * for a request without a body.
   */
  request(host: string, port: number, method: string, path: string, authority: string, headers: OutgoingHttpHeaders, body: Readable | undefined, on: BackendCallHandlers): BackendCall {
    if (body) return this.requestOnce(host, port, method, path, authority, headers, body, on, undefined);
    // A request without a body that the backend did not process is sent once more, on a new connection, as Go's
    // transport retries it (a backend shutting down gracefully refuses the streams that crossed its GOAWAY).
    let current: BackendCall;
    let aborted = false;
    const again: OnUnprocessed = () => {
      if (!aborted) current = this.requestOnce(host, port, method, path, authority, headers, undefined, on, undefined);
    };
    current = this.requestOnce(host, port, method, path, authority, headers, undefined, on, again);
    return {
      abort: () => {
        aborted = true;
        current.abort();
      },
    };
  }

  private requestOnce(host: string, port: number, method: string, path: string, authority: string, headers: OutgoingHttpHeaders, body: Readable | undefined, on: BackendCallHandlers, unprocessed: OnUnprocessed | undefined): BackendCall {
    const entry = this.connection(host, port);
    if (entry.ready) return this.send(entry.ready, host, port, method, path, authority, headers, body, on, unprocessed);
    let aborted = false;
    let abortNow = () => {
      aborted = true;
    };
    entry.pending.then(
      (connection) => {
        if (!aborted) abortNow = this.send(connection, host, port, method, path, authority, headers, body, on, unprocessed).abort;
      },
      (err: NodeJS.ErrnoException) => {
        if (!aborted) on.error(err, null);
      },
    );
    return { abort: () => abortNow() };
  }

  /**
   * Sends a request that asks to switch protocols (its headers carry `Connection: Upgrade` and `Upgrade`) over a new
   * HTTP/1.1 connection of its own, as kube's upgrade-aware proxy dials one: HTTP/2 cannot switch protocols.
   */
  upgrade(host: string, port: number, method: string, path: string, authority: string, headers: OutgoingHttpHeaders, on: UpgradeCallHandlers): BackendCall {
    headers['host'] = authority;
    const req = https.request({ ...this.tls, agent: false, host, port, method, path, headers }); // no ALPN offered: HTTP/1.1
    req.once('upgrade', (res, socket, head) => on.switched({ statusMessage: res.statusMessage ?? '', rawHeaders: res.rawHeaders, socket, head }));
    req.once('response', (res) => on.response({ status: res.statusCode ?? 502, headers: res.headers, body: res }));
    req.on('error', (err: NodeJS.ErrnoException) => on.error(err, req.socket));
    req.end();
    return { abort: () => req.destroy() };
  }

  /** Closes every connection (requests in flight end with them). */
  close(): void {
    for (const { pending } of this.connections.values()) void pending.then((c) => c.protocol === 'h2' && c.session.destroy(), () => undefined);
    this.connections.clear();
    this.agent.destroy();
  }

  private send(connection: Connection, host: string, port: number, method: string, path: string, authority: string, headers: OutgoingHttpHeaders, body: Readable | undefined, on: BackendCallHandlers, unprocessed: OnUnprocessed | undefined): BackendCall {
    return connection.protocol === 'h2' ? this.overHttp2(connection.session, method, path, authority, headers, body, on, unprocessed) : this.overHttp1(host, port, method, path, authority, headers, body, on);
  }

  private overHttp2(session: http2.ClientHttp2Session, method: string, path: string, authority: string, headers: OutgoingHttpHeaders, body: Readable | undefined, on: BackendCallHandlers, unprocessed: OnUnprocessed | undefined): BackendCall {
    let stream: http2.ClientHttp2Stream;
    try {
      headers[':method'] = method;
      headers[':path'] = path;
      headers[':authority'] = authority;
      // Node would end a GET's, HEAD's and DELETE's stream with its headers unless told: a DELETE may carry DeleteOptions
      stream = requestStream(session, headers, body ? headersThenBody : headersOnly);
    } catch (err) {
      // the session went away meanwhile (its end is noticed a tick later): answered as the caller expects, not before it has the call
      process.nextTick(() => (unprocessed ? unprocessed() : on.error(err as NodeJS.ErrnoException, null)));
      return { abort: () => undefined };
    }
    let answered = false;
    stream.once('response', (h) => {
      answered = true;
      on.response({ status: Number(h[':status']), headers: h, body: stream });
    });
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (unprocessed && !answered && stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM) unprocessed();
      else on.error(err, null);
    });
    body?.pipe(stream);
    return {
      abort: () => {
        if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      },
    };
  }

  private overHttp1(host: string, port: number, method: string, path: string, authority: string, headers: OutgoingHttpHeaders, body: Readable | undefined, on: BackendCallHandlers): BackendCall {
    headers['host'] = authority;
    const req = https.request({ agent: this.agent, servername: this.serverName, host, port, method, path, headers });
    req.once('response', (res) => on.response({ status: res.statusCode ?? 502, headers: res.headers, body: res }));
    req.on('error', (err: NodeJS.ErrnoException) => on.error(err, req.socket));
    if (body) body.pipe(req);
    else req.end();
    return { abort: () => req.destroy() };
  }

  /** The endpoint's connection: HTTP/2 when its TLS offers `h2`, else the mark that it speaks HTTP/1.1. */
  private connection(host: string, port: number): ConnectionEntry {
    const key = `${host}:${port}`;
    let entry = this.connections.get(key);
    if (!entry) {
      const opening: ConnectionEntry = { pending: this.connect(host, port, key) };
      opening.pending.then(
        (connection) => (opening.ready = connection),
        () => this.forget(key, opening),
      );
      this.connections.set(key, opening);
      entry = opening;
    }
    return entry;
  }

  private forget(key: string, entry: ConnectionEntry): void {
    if (this.connections.get(key) === entry) this.connections.delete(key);
  }

  private connect(host: string, port: number, key: string): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({ ...this.tls, host, port, ALPNProtocols: ['h2', 'http/1.1'] });
      socket.setNoDelay(true);
      socket.once('error', reject);
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        if (socket.alpnProtocol !== 'h2') {
          socket.end();
          resolve({ protocol: 'http/1.1' });
          return;
        }
        const session = http2.connect(`https://${key}`, {
          createConnection: () => socket,
          settings: { initialWindowSize: streamWindowBytes, maxHeaderListSize: headerListBytes },
          maxHeaderListPairs: Math.floor(headerListBytes / 32),
          maxSendHeaderBlockLength: headerListBytes,
        });
        session.once('connect', () => session.setLocalWindowSize(connectionWindowBytes));
        const self = this.connections.get(key);
        const forget = () => self && this.forget(key, self);
        session.on('error', forget);
        session.once('goaway', forget);
        session.once('close', forget);
        session.setTimeout(idleTimeoutMs, () => {
          forget();
          session.close(); // streams still open (a quiet watch) finish first
        });
        resolve({ protocol: 'h2', session });
      });
    });
  }
}

/** Transports by TLS configuration, so APIServices rewritten with the same settings keep their connections. */
const transports = new Map<string, BackendTransport>();
/** …and by backend object, so a request finds its transport without comparing PEMs. */
const byBackend = new WeakMap<AggregatedBackend, BackendTransport>();
/** More configurations than this (APIServices rewritten again and again) and the old transports are closed. */
const maxTransports = 256;

/** The transport for an APIService's backend with the front-proxy client certificate `client`. */
export function backendTransport(backend: AggregatedBackend, client: ProxyClientCertificate | undefined): BackendTransport {
  let transport = byBackend.get(backend);
  if (transport) return transport;
  const servername = backendServerName(backend);
  const insecure = backend.insecureSkipTLSVerify === true;
  const ca = backend.caBundle || undefined;
  const key = JSON.stringify([servername, insecure, ca ?? '', client?.certPem ?? '']);
  transport = transports.get(key);
  if (!transport) {
    if (transports.size >= maxTransports) {
      for (const old of transports.values()) old.close();
      transports.clear();
    }
    transport = new BackendTransport(servername, insecure, ca, client);
    transports.set(key, transport);
  }
  byBackend.set(backend, transport);
  return transport;
}

/**
 * The TLS side of an HTTP/1.1 request the aggregation layer sends itself to an APIService's backend (discovery,
 * OpenAPI): the backend's transport's kept-alive connections.
 */
export function backendTlsOptions(backend: AggregatedBackend, client: ProxyClientCertificate | undefined): https.RequestOptions {
  const transport = backendTransport(backend, client);
  return { agent: transport.agent, servername: transport.serverName };
}

/**
 * The TLS side of kube's availability check: it presents the front-proxy client certificate and verifies nothing ("if
 * someone owns the network and messes with your status that's not so bad"); a wrong caBundle shows on requests instead.
 * A new connection each check, as kube builds a new transport for each.
 */
export function discoveryCheckTlsOptions(client: ProxyClientCertificate | undefined): https.RequestOptions {
  return { agent: false, rejectUnauthorized: false, ...(client ? { cert: client.certPem, key: client.keyPem } : {}) };
}
