/**
 * A small aggregated API server for tests: HTTPS on a non-loopback address (Endpoints refuse loopback ones) with a
 * serving certificate valid for `<any name>.aggregated.svc`, asking for a client certificate of the given front-proxy
 * CA. Each path is programmed with a Node handler; every request is recorded with its headers and client certificate.
 * It can be stopped (its port refuses connections) and started again on the same address.
 *
 *   const backend = await startAggregatedBackend(frontProxyCa.certPem);
 *   backend.handle('/apis/wardle.example.com/v1', (req, res) => res.end(...));
 *   await routeServiceToBackend(front, backend, 'api');
 */
import https from 'node:https';
import http2 from 'node:http2';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { createCa, createServingCert } from '../../plugins/auth/certificates.js';
import type { TestServer } from './test-server.js';

/** The namespace of the test backends' Services: their certificate is valid for `<name>.aggregated.svc`. */
export const backendNamespace = 'aggregated';

export interface BackendRequest {
  method: string;
  /** '1.1' or '2.0'. */
  httpVersion: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Every value of each header (one entry per header line). */
  headersDistinct: NodeJS.Dict<string[]>;
  /** The CommonName of the client certificate, and whether it verified against the front-proxy CA. */
  clientCert?: { commonName: string; authorized: boolean };
  body: string;
  /** Over HTTP/2: whether the request's HEADERS frame ended its stream (no DATA frame followed). */
  endedWithHeaders?: boolean;
}

export type BackendHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
/** For a request that asks to switch protocols: its connection, and the bytes that came after its headers. */
export type BackendUpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface TestAggregatedBackend {
  /** Base64 of the PEM of the CA that signed the serving certificate (an APIService's caBundle). */
  caBundle: string;
  ip: string;
  port: number;
  requests: BackendRequest[];
  /** HTTP/2 connections accepted so far (with `http2`). */
  readonly http2Sessions: number;
  /** Programs a path (unprogrammed ones answer 404). */
  handle(path: string, handler: BackendHandler): void;
  /** Programs a path for requests that ask to switch protocols (unprogrammed ones answer 404 and close). */
  handleUpgrade(path: string, handler: BackendUpgradeHandler): void;
  /** Stops listening and ends every connection: the address refuses connections. */
  stop(): Promise<void>;
  /** Listens again on the same address. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The host's first non-loopback IPv4 address. */
export function endpointIp(): string {
  const ip = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))?.address;
  if (!ip) throw new Error('the aggregated test backend needs a non-loopback IPv4 address for Endpoints (kube refuses loopback ones)');
  return ip;
}

/** With `http2`, the backend offers h2 and http/1.1 (ALPN), as a kapi or Go server does; else HTTP/1.1 only. */
export async function startAggregatedBackend(frontProxyCaPem: string, opts: { http2?: boolean } = {}): Promise<TestAggregatedBackend> {
  const ca = await createCa('kapi-test-aggregated-ca');
  const serving = await createServingCert(ca, 'kapi-test-aggregated', [`*.${backendNamespace}.svc`]);
  const handlers = new Map<string, BackendHandler>();
  const upgradeHandlers = new Map<string, BackendUpgradeHandler>();
  const requests: BackendRequest[] = [];
  const sockets = new Set<Socket>();
  const tlsOptions = { cert: serving.certPem, key: serving.keyPem, ca: frontProxyCaPem, requestCert: true, rejectUnauthorized: false };
  let http2Sessions = 0;
  const record = (req: IncomingMessage, body: string) => {
    const stream = (req as unknown as Partial<http2.Http2ServerRequest>).stream;
    const socket = req.socket as TLSSocket;
    const peer = socket.getPeerCertificate();
    requests.push({
      method: req.method ?? '',
      httpVersion: req.httpVersion,
      url: req.url ?? '',
      headers: req.headers,
      headersDistinct: req.headersDistinct,
      ...(peer?.subject ? { clientCert: { commonName: String(peer.subject.CN), authorized: socket.authorized } } : {}),
      body,
      ...(stream ? { endedWithHeaders: stream.endAfterHeaders } : {}),
    });
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      record(req, body);
      const handler = handlers.get(new URL(req.url ?? '/', 'https://backend').pathname);
      if (!handler) res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
      else handler(req, res, body);
    });
  };
  const server = opts.http2
    ? // a kube backend's header limits (1 MiB, any number of fields), not Node's 64 KiB and 128 fields
      http2.createSecureServer({ ...tlsOptions, allowHTTP1: true, settings: { maxHeaderListSize: (1 << 20) + 320 }, maxHeaderListPairs: 1 << 15 }, onRequest as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void)
    : https.createServer(tlsOptions, onRequest);
  server.on('session', () => http2Sessions++);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    record(req, '');
    socket.on('error', () => socket.destroy());
    const handler = upgradeHandlers.get(new URL(req.url ?? '/', 'https://backend').pathname);
    if (!handler) socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 18\r\n\r\n404 page not found');
    else handler(req, socket, head);
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // connections to the endpoint address are handed to the HTTPS server as its own
  const listener = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    server.emit('connection', socket);
  });
  const ip = endpointIp();
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, ip, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  await listen(0);
  const port = (listener.address() as net.AddressInfo).port;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  return {
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    ip,
    port,
    requests,
    get http2Sessions() {
      return http2Sessions;
    },
    handle: (path, handler) => void handlers.set(path, handler),
    handleUpgrade: (path, handler) => void upgradeHandlers.set(path, handler),
    stop,
    start: () => listen(port),
    async close() {
      if (listener.listening) await stop();
    },
  };
}

/** Creates (once) the namespace of backend Services, then a selectorless Service `name` on port 443 with Endpoints at the backend. */
export async function routeServiceToBackend(front: TestServer, backend: TestAggregatedBackend, name: string): Promise<void> {
  const ns = await front.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: backendNamespace } } });
  if (ns.status !== 201 && ns.status !== 409) throw new Error(ns.text);
  const create = async (resource: string, body: unknown) => {
    const res = await front.request('POST', `/api/v1/namespaces/${backendNamespace}/${resource}`, { body });
    if (res.status !== 201) throw new Error(`creating ${resource} ${name}: ${res.status} ${res.text}`);
  };
  await create('services', { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 443 }] } });
  await create('endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets: [{ addresses: [{ ip: backend.ip }], ports: [{ port: backend.port }] }] });
}

/** An APIService for `<version>.<group>` routed to Service `service` of the backend namespace. */
export function apiService(group: string, version: string, service: string | undefined, spec: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: `${version}.${group}` },
    spec: {
      group,
      version,
      groupPriorityMinimum: 1000,
      versionPriority: 15,
      ...(service ? { service: { namespace: backendNamespace, name: service, port: 443 } } : {}),
      ...spec,
    },
  };
}
