/**
 * A real HTTPS webhook server for tests (admission and conversion webhooks), on loopback with its own test CA.
 * Each path is programmed with a handler `(body, path) => reply`; every request is recorded.
 *
 *   const hooks = await startWebhookServer();
 *   hooks.handle('/deny', (review) => admissionResponse(review, { allowed: false, status: { message: 'no' } }));
 *   // clientConfig: { url: hooks.url('/deny'), caBundle: hooks.caBundle }
 *   await hooks.close();
 */
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import test from 'ava';
import { createCa, createServingCert, type CertificatePem } from '../../plugins/auth/certificates.js';
import { suffix, widget, widgetsPath, type TestServer } from './test-server.js';

/** What a handler answers: a JSON body (status 200 unless given), raw bytes, or a misbehaviour. */
export type WebhookReply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; raw: string | Buffer }
  /** Never answer (the caller's timeout must end the call). */
  | 'hang'
  /** Close the connection without answering. */
  | 'close';

export type WebhookHandler = (body: any, path: string) => WebhookReply | Promise<WebhookReply>;

/** One request the server received. */
export interface RecordedRequest {
  path: string;
  /** The query string parameters (kube sends `timeout`). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any;
}

export interface TestWebhookServer {
  /** `https://127.0.0.1:PORT<path>`. */
  url(path: string): string;
  /** The port it listens on (127.0.0.1): an ExternalName Service of `localhost` reaches it there. */
  port: number;
  /**
   * An address where it also listens that Endpoints may hold (kube refuses loopback addresses there): the host's first
   * non-loopback IPv4 address, listened on from the first call.
   */
  endpointAddress(): Promise<{ ip: string; port: number }>;
  /** Base64 of the PEM of the CA that signed the server's certificate (a webhook's `clientConfig.caBundle`). */
  caBundle: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The requests received on one path. */
  requestsTo(path: string): RecordedRequest[];
  /** Programs a path (replacing its previous handler). Unprogrammed paths answer 404. */
  handle(path: string, handler: WebhookHandler): void;
  close(): Promise<void>;
}

/** One webhook server for a test file: started before its tests, closed after them (as useTestServer does for kapi). */
export function useWebhookServer(): TestWebhookServer {
  const hooks = {} as TestWebhookServer;
  test.before(async () => {
    Object.assign(hooks, await startWebhookServer());
  });
  test.after.always(async () => {
    await hooks.close?.();
  });
  return hooks;
}

/** A new namespace `<prefix>-<suffix>` labelled `kapi.test/ns: <name>` (and `labels`), for webhooks that select only it. */
export async function createWebhookTestNamespace(s: TestServer, prefix: string, labels: Record<string, string> = {}): Promise<string> {
  const name = `${prefix}-${suffix()}`;
  const res = await s.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kapi.test/ns': name, ...labels } } } });
  if (res.status !== 201) throw new Error(res.text);
  return name;
}

/**
 * The namespace of the Services that route to the test server (routeServiceToWebhookServer): its certificate is valid
 * for `<any name>.webhook-services.svc`, the name kube verifies for a webhook's `clientConfig.service`.
 */
export const webhookServicesNamespace = 'webhook-services';

/**
 * A CA and a serving certificate for 127.0.0.1, localhost and the Services of webhookServicesNamespace, made once per
 * test process (key generation is the slow part).
 */
let pki: Promise<{ ca: CertificatePem; serving: CertificatePem }> | undefined;
function testPki(): Promise<{ ca: CertificatePem; serving: CertificatePem }> {
  pki ??= (async () => {
    const ca = await createCa('kapi-test-webhook-ca');
    return { ca, serving: await createServingCert(ca, 'kapi-test-webhook', ['127.0.0.1', 'localhost', `*.${webhookServicesNamespace}.svc`]) };
  })();
  return pki;
}

/** The base64 PEM of a CA that signed nothing the test server presents (for "wrong CA" tests). */
export async function unrelatedCaBundle(): Promise<string> {
  const other = await createCa('kapi-test-unrelated-ca');
  return Buffer.from(other.certPem).toString('base64');
}

export async function startWebhookServer(): Promise<TestWebhookServer> {
  const { ca, serving } = await testPki();
  const handlers = new Map<string, WebhookHandler>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
      const handler = handlers.get(url.pathname);
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
        return;
      }
      let reply: WebhookReply;
      try {
        reply = await handler(body, url.pathname);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`test handler failed: ${(err as Error).message}`);
        return;
      }
      if (reply === 'hang') return;
      if (reply === 'close') {
        req.socket.destroy();
        return;
      }
      const payload = 'json' in reply ? JSON.stringify(reply.json) : reply.raw;
      res.writeHead(reply.status ?? 200, { ...('json' in reply ? { 'content-type': 'application/json' } : {}), ...reply.headers }).end(payload);
    });
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  // connections to the endpoint address are handed to the HTTPS server as its own
  const endpointListener = net.createServer((socket) => server.emit('connection', socket));
  let endpoint: Promise<{ ip: string; port: number }> | undefined;
  const listenOnEndpoint = async () => {
    const ip = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))?.address;
    if (!ip) throw new Error('the test webhook server needs a non-loopback IPv4 address for Endpoints (kube refuses loopback ones)');
    await new Promise<void>((resolve) => endpointListener.listen(0, ip, resolve));
    return { ip, port: (endpointListener.address() as net.AddressInfo).port };
  };
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    port,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    handle: (path, handler) => void handlers.set(path, handler),
    endpointAddress: () => (endpoint ??= listenOnEndpoint()),
    async close() {
      if (endpoint) await new Promise<void>((resolve) => endpointListener.close(() => resolve()));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/**
 * Creates a Service `name` that reaches the test server, in `opts.namespace` (webhookServicesNamespace unless given;
 * created when missing): a selectorless one on port 443 with its Endpoints (the server's endpointAddress), or with
 * `opts.externalName` an ExternalName Service of that host. Resolves to its `clientConfig.service` for `path` (port
 * the server's for an ExternalName, 443 otherwise).
 */
export async function routeServiceToWebhookServer(
  s: TestServer,
  hooks: TestWebhookServer,
  name: string,
  path: string,
  opts: { namespace?: string; externalName?: string } = {},
): Promise<{ namespace: string; name: string; path: string; port: number }> {
  const namespace = opts.namespace ?? webhookServicesNamespace;
  const ns = await s.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  if (ns.status !== 201 && ns.status !== 409) throw new Error(ns.text);
  const create = async (resource: string, body: unknown) => {
    const res = await s.request('POST', `/api/v1/namespaces/${namespace}/${resource}`, { body });
    if (res.status !== 201) throw new Error(`creating ${resource} ${name}: ${res.status} ${res.text}`);
  };
  if (opts.externalName) {
    await create('services', { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'ExternalName', externalName: opts.externalName } });
    return { namespace, name, path, port: hooks.port };
  }
  const { ip, port } = await hooks.endpointAddress();
  await create('services', { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 443 }] } });
  await create('endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets: [{ addresses: [{ ip }], ports: [{ port }] }] });
  return { namespace, name, path, port: 443 };
}

// ---------------------------------------------------------------------------------------------------------------
// AdmissionReview answers

/** An AdmissionReview answering `review` (same apiVersion, same uid) with the given response fields. */
export function admissionResponse(review: any, response: Record<string, unknown>): WebhookReply {
  return {
    json: {
      apiVersion: review?.apiVersion ?? 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: review?.request?.uid, ...response },
    },
  };
}

export const allow: WebhookHandler = (review) => admissionResponse(review, { allowed: true });

/** Refuses with a Status (message, and optionally code and reason). */
export function deny(message: string, extra: Record<string, unknown> = {}): WebhookHandler {
  return (review) => admissionResponse(review, { allowed: false, status: { message, ...extra } });
}

/** Allows with a JSON patch (RFC 6902 operations), base64-encoded as kube expects. */
export function patch(ops: unknown[], extra: Record<string, unknown> = {}): WebhookHandler {
  return (review) =>
    admissionResponse(review, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64'), ...extra });
}

// ---------------------------------------------------------------------------------------------------------------
// Admission webhook configurations

/** One webhook of a test configuration; `path` is where on the test server it is served. */
export interface TestWebhook {
  name?: string;
  path: string;
  rules?: unknown[];
  [field: string]: unknown;
}

/** Widgets (example.com/v1) on CREATE and UPDATE: the rule tests use unless they say otherwise. */
export const widgetRules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }];

/**
 * A Validating- or MutatingWebhookConfiguration whose webhooks call paths of the test server (caBundle set, sideEffects
 * None, admissionReviewVersions [v1], widget rules), each field overridable.
 */
export function webhookConfiguration(kind: 'Validating' | 'Mutating', name: string, hooks: TestWebhook, ...more: TestWebhook[]): (server: TestWebhookServer) => any {
  return (server) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: [hooks, ...more].map(({ path, ...hook }, i) => ({
      name: `hook-${i}.${name}.kapi.test`,
      clientConfig: { url: server.url(path), caBundle: server.caBundle },
      rules: widgetRules,
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      ...hook,
    })),
  });
}

/** The REST path of a webhook configuration kind (collection, or one object). */
export function webhookConfigurationsPath(kind: 'Validating' | 'Mutating', name?: string): string {
  return `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}webhookconfigurations${name ? `/${name}` : ''}`;
}

/** A configuration's webhooks limited to namespace `ns` (see createWebhookTestNamespace), unless they select namespaces themselves. */
export function limitedTo(config: ReturnType<typeof webhookConfiguration>, hooks: TestWebhookServer, ns: string): any {
  const body = config(hooks);
  for (const hook of body.webhooks) hook.namespaceSelector ??= { matchLabels: { 'kapi.test/ns': ns } };
  return body;
}

/**
 * Creates configurations limited to `ns`, then waits until a dry-run create in `ns` of a widget labelled `probe.labels`
 * reaches `probe.path` (configuration reaches admission through an informer). Returns the bodies created.
 */
export async function installWebhookConfigurations(
  server: TestServer,
  hooks: TestWebhookServer,
  kind: 'Validating' | 'Mutating',
  ns: string,
  probe: { path: string; labels?: Record<string, string> },
  ...configs: ReturnType<typeof webhookConfiguration>[]
): Promise<any[]> {
  const bodies = [];
  for (const config of configs) {
    const body = limitedTo(config, hooks, ns);
    const res = await server.request('POST', webhookConfigurationsPath(kind), { body });
    if (res.status !== 201) throw new Error(`creating ${body.metadata.name}: ${res.status} ${res.text}`);
    bodies.push(body);
  }
  await server.waitFor(async () => {
    const before = hooks.requestsTo(probe.path).length;
    await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget(`probe-${suffix()}`, { labels: probe.labels ?? {} }) });
    return hooks.requestsTo(probe.path).length > before;
  }, 10_000, `${probe.path} to be called`);
  return bodies;
}
