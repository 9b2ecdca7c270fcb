/**
 * Integration-test harness: a real kapi server on loopback with TLS and a bearer token, and a small HTTPS client.
 *
 *   const server = await startTestServer();
 *   await installWidgetsCrd(server);
 *   const res = await server.request('GET', '/apis/example.com/v1/widgets');
 *   await server.close();
 *
 * or, for one server shared by the tests of a file: `const server = useTestServer({ widgetsCrd: true });`
 */
import 'reflect-metadata';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import YAML from 'yaml';
import {
  createApiServer,
  defaultModules,
  rbacAuthorization,
  staticTokenAuth,
  Tokens,
  type EtcdStorageOptions,
  type Module,
  type ServiceAccountTokenConfig,
  type ShutdownOptions,
  type StaticToken,
} from '../../index.js';
import type { ServerConfigOverrides } from '../../core/contracts/server-config.js';
import { adminUser, ensureAdminToken, ensurePki, ensureServiceAccountSigningKey } from '../../plugins/auth/index.js';

export interface StartOptions {
  storage?: 'sqlite' | 'memory' | 'etcd';
  /** With `storage: 'etcd'`: the etcd cluster (see tests/helpers/etcd-process.ts). */
  etcd?: EtcdStorageOptions;
  /** Reuse a data directory (e.g. to restart on it); the caller removes it. Default: a fresh temporary one. */
  dataDir?: string;
  crdPaths?: string[];
  /** Server settings to override (e.g. a short bookmark interval or a small watch-cache history). */
  config?: ServerConfigOverrides;
  /** Modules added after the default ones (e.g. test admission plugins). */
  modules?: Module[];
  /** An AdmissionConfiguration file (`kapi serve --admission-control-config-file`). */
  admissionControlConfigFile?: string;
  /**
   * Serve ServiceAccount tokens (TokenRequest, OpenID discovery, the authenticator) signed by the data directory's
   * `pki/sa.key`, with kapi serve's default issuer and audiences unless given here.
   */
  serviceAccountTokens?: Partial<Pick<ServiceAccountTokenConfig, 'issuers' | 'audiences' | 'maxExpirationSeconds'>>;
  /** How long Events are kept (`kapi serve --event-ttl`); default kube's hour. */
  eventTtlMs?: number;
  /** Authentication and authorization modules instead of the admin token and the authorizers below (`token` is then the first one's). */
  auth?: { modules: Module[]; token: string };
  /** More bearer tokens and their users, besides the admin's (RBAC decides what they may do, as in `kapi serve`). */
  tokens?: StaticToken[];
  /** The authorizer modules, in order (default: RBAC, as `kapi serve`). */
  authorizers?: Module[];
}

/** `kapi serve`'s default service-account issuer (kubeadm's). */
export const defaultIssuer = 'https://kubernetes.default.svc.cluster.local';

export interface RequestOptions {
  /** Sent as JSON (Content-Type application/json unless `contentType` says otherwise). */
  body?: unknown;
  /** Sent as is, instead of `body`. */
  rawBody?: Buffer | string;
  contentType?: string;
  /** An array value sends the header once per element. */
  headers?: Record<string, string | string[]>;
  /** The bearer token to send: the admin token by default; null sends no Authorization header. */
  token?: string | null;
  /** Send the body with chunked transfer encoding (no Content-Length). */
  chunked?: boolean;
}

export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The header lines as received: name, value, name, value… (values as Node reads them: one Latin-1 char a byte). */
  rawHeaders: string[];
  /** Parsed JSON when the response is JSON, else the text. */
  body: any;
  text: string;
}

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every event received so far. */
  events: WatchEvent[];
  /** The next event not yet taken; rejects after `timeoutMs` or when the stream ends first. */
  next(timeoutMs?: number): Promise<WatchEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** How the stream ended: `end` (the response's proper end, after whole events) or `cut` (reset, aborted, mid-event). */
  outcome: Promise<'end' | 'cut'>;
  close(): void;
}

export interface TestServer {
  url: string;
  token: string;
  ca: string;
  dataDir: string;
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  /** Opens a watch (a GET that streams JSON lines); resolves once the response headers arrived. */
  watch(path: string, opts?: Pick<RequestOptions, 'headers' | 'token'>): Promise<WatchStream>;
  /** Polls `fn` until it returns a truthy value (errors count as "not yet"); rejects after `timeoutMs`. */
  waitFor<T>(fn: () => Promise<T> | T, timeoutMs?: number, what?: string): Promise<NonNullable<T>>;
  /** Compacts storage history up to `revision` (default: the current revision); returns the revision compacted. */
  compact(revision?: number): Promise<number>;
  /** The server's graceful shutdown (`ApiServer.shutdown`); the data directory is removed after it as by `close`. */
  shutdown(opts?: ShutdownOptions): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'kapi-it-')));
  const token = opts.auth?.token ?? (await ensureAdminToken(dataDir));
  const pki = await ensurePki(join(dataDir, 'pki'), { hosts: ['127.0.0.1'] });
  const sa = opts.serviceAccountTokens;
  const issuers = sa?.issuers ?? [defaultIssuer];
  const serviceAccountTokens: ServiceAccountTokenConfig | undefined = sa && {
    issuers,
    audiences: sa.audiences ?? [issuers[0]!],
    signingKey: await ensureServiceAccountSigningKey(join(dataDir, 'pki', 'sa.key')),
    verificationKeys: [],
    maxExpirationSeconds: sa.maxExpirationSeconds ?? 0,
  };
  const server = createApiServer({
    config: opts.config,
    modules: [
      ...defaultModules({
        storage: opts.storage ?? 'sqlite',
        dataDir,
        ...(opts.etcd ? { etcd: opts.etcd } : {}),
        crdPaths: opts.crdPaths,
        ...(opts.admissionControlConfigFile ? { admissionControlConfigFile: opts.admissionControlConfigFile } : {}),
        ...(opts.eventTtlMs !== undefined ? { eventTtlMs: opts.eventTtlMs } : {}),
        authModules: opts.auth?.modules ?? [staticTokenAuth([{ token, user: adminUser }, ...(opts.tokens ?? [])]), ...(opts.authorizers ?? [rbacAuthorization()])],
        ...(serviceAccountTokens ? { serviceAccountTokens } : {}),
      }),
      ...(opts.modules ?? []),
    ],
  });
  const { url, port } = await server.listen({ port: 0, host: '127.0.0.1', tls: { cert: pki.certPem, key: pki.keyPem } });
  const ca = pki.caCertPem;
  const openWatches = new Set<WatchStream>();

  const send = (method: string, path: string, ro: RequestOptions = {}) => {
    const headers: Record<string, string | string[]> = {};
    const auth = ro.token === undefined ? token : ro.token;
    if (auth !== null) headers['authorization'] = `Bearer ${auth}`;
    let payload: Buffer | undefined;
    if (ro.rawBody !== undefined) payload = Buffer.from(ro.rawBody);
    else if (ro.body !== undefined) payload = Buffer.from(JSON.stringify(ro.body));
    if (payload) {
      headers['content-type'] = ro.contentType ?? 'application/json';
      if (!ro.chunked) headers['content-length'] = String(payload.length);
    }
    Object.assign(headers, ro.headers);
    const req = https.request({ host: '127.0.0.1', port, method, path, ca, headers, agent: false });
    return { req, payload };
  };

  const request = (method: string, path: string, ro: RequestOptions = {}): Promise<TestResponse> =>
    new Promise((resolve, reject) => {
      const { req, payload } = send(method, path, ro);
      let responded = false;
      req.on('response', (res: IncomingMessage) => {
        responded = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body: parseBody(res.headers, text), text });
        });
      });
      // The server may answer (e.g. 413) before it has read the whole body; a write error after that is expected.
      req.on('error', (err) => {
        if (!responded) reject(new Error(`${method} ${path}: ${err.message}`));
      });
      if (payload && ro.chunked) {
        const chunkSize = 64 * 1024;
        for (let i = 0; i < payload.length; i += chunkSize) req.write(payload.subarray(i, i + chunkSize));
        req.end();
      } else {
        req.end(payload);
      }
    });

  const watch = (path: string, ro: Pick<RequestOptions, 'headers' | 'token'> = {}): Promise<WatchStream> =>
    new Promise((resolve, reject) => {
      const { req } = send('GET', path, ro);
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        const stream = watchStream(res, () => req.destroy());
        openWatches.add(stream);
        void stream.ended.then(() => openWatches.delete(stream));
        resolve(stream);
      });
      req.end();
    });

  return {
    url,
    token,
    ca,
    dataDir,
    request,
    watch,
    waitFor: (fn, timeoutMs, what) => waitFor(fn, timeoutMs, what),
    async compact(revision) {
      const kv = server.container.resolve(Tokens.KVStore);
      const target = revision ?? (await kv.currentRevision());
      await kv.compact(target);
      return target;
    },
    async shutdown(so) {
      await server.shutdown(so);
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
    async close() {
      for (const w of openWatches) w.close();
      await server.close();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function parseBody(headers: IncomingHttpHeaders, text: string): unknown {
  if (!/json/.test(headers['content-type'] ?? '') || text === '') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads a watch response as JSON-lines events (also for watches opened by other clients, e.g. through a proxy). */
export function watchStream(res: IncomingMessage, destroy: () => void): WatchStream {
  const events: WatchEvent[] = [];
  let taken = 0;
  let done = false;
  let buffered = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  let settle!: (how: 'end' | 'cut') => void;
  const outcome = new Promise<'end' | 'cut'>((resolve) => (settle = resolve));
  const ended = new Promise<void>((resolve) => {
    const finish = (how: 'end' | 'cut') => {
      if (done) return;
      done = true;
      settle(how);
      resolve();
      wake();
    };
    res.on('end', () => finish(buffered.trim() === '' ? 'end' : 'cut'));
    res.on('close', () => finish(res.complete ? 'end' : 'cut'));
    res.on('error', () => finish('cut'));
    res.on('aborted', () => finish('cut'));
  });
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) events.push(JSON.parse(line) as WatchEvent);
    }
    wake();
  });
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    events,
    ended,
    outcome,
    close: () => {
      destroy();
      res.destroy();
    },
    next(timeoutMs = 5000) {
      return new Promise<WatchEvent>((resolve, reject) => {
        const check = () => {
          if (taken < events.length) {
            cleanup();
            resolve(events[taken++]!);
          } else if (done) {
            cleanup();
            reject(new Error(`watch ended after ${events.length} events without another one`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no watch event within ${timeoutMs}ms (received ${events.length}: ${events.map((e) => e.type).join(', ')})`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

export async function waitFor<T>(fn: () => Promise<T> | T, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs}ms waiting for ${what} (last: ${detail})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface SharedServerOptions extends StartOptions {
  /** Install the example widgets CRD (see `installWidgetsCrd`) before the first test. */
  widgetsCrd?: boolean;
}

/**
 * One server for all the tests of a file: registers ava hooks that start it before the first test and close it after
 * the last. The returned object is filled in by a serial `before` hook, so use it only inside tests and hooks (the
 * file's own `before` hooks run after it).
 */
export function useTestServer(opts: SharedServerOptions = {}): TestServer {
  const { widgetsCrd: withWidgets, ...startOptions } = opts;
  const server = {} as TestServer;
  test.serial.before(async () => {
    Object.assign(server, await startTestServer(startOptions));
    if (withWidgets) await installWidgetsCrd(server);
  });
  test.after.always(async () => {
    await server.close?.();
  });
  return server;
}

// ---------------------------------------------------------------------------------------------------------------
// CRDs

const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const widgetsCrdFile = fileURLToPath(new URL('../../../examples/crd-only/widgets-crd.yaml', import.meta.url));

/** The example widgets CRD (examples/crd-only/widgets-crd.yaml) as JSON. */
export async function widgetsCrd(): Promise<any> {
  return YAML.parse(await readFile(widgetsCrdFile, 'utf8'));
}

/** Creates a CRD (expects 201) and waits until its group-version serves its plural. */
export async function installCrd(server: TestServer, crd: any): Promise<void> {
  const res = await server.request('POST', crdsPath, { body: crd });
  if (res.status !== 201) throw new Error(`creating CRD ${crd.metadata.name}: ${res.status} ${res.text}`);
  const plural: string = crd.spec.names.plural;
  const group: string = crd.spec.group;
  for (const version of crd.spec.versions.filter((v: { served: boolean }) => v.served)) {
    await waitForServed(server, group, version.name, plural);
  }
}

/** Waits until /apis/GROUP/VERSION lists `plural`. */
export async function waitForServed(server: TestServer, group: string, version: string, plural: string): Promise<void> {
  await server.waitFor(
    async () => {
      const res = await server.request('GET', `/apis/${group}/${version}`);
      return res.status === 200 && res.body.resources.some((r: { name: string }) => r.name === plural);
    },
    10_000,
    `${plural}.${group}/${version} to be served`,
  );
}

/** Installs the widgets CRD through the API and waits until /apis/example.com/v1 serves widgets. */
export async function installWidgetsCrd(server: TestServer): Promise<void> {
  await installCrd(server, await widgetsCrd());
}

// ---------------------------------------------------------------------------------------------------------------
// Objects and assertions

/** A random suffix for names that must not collide between tests sharing a server. */
export function suffix(): string {
  return randomBytes(3).toString('hex');
}

/** Creates a namespace named `<prefix>-<random>` and returns its name. */
export async function createNamespace(server: TestServer, prefix: string): Promise<string> {
  const name = `${prefix}-${suffix()}`;
  const res = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  if (res.status !== 201) throw new Error(`creating namespace ${name}: ${res.status} ${res.text}`);
  return name;
}

export interface WidgetOptions {
  spec?: Record<string, unknown>;
  labels?: Record<string, string>;
  finalizers?: string[];
}

/** A Widget body (example.com/v1). */
export function widget(name: string, opts: WidgetOptions = {}) {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}), ...(opts.finalizers ? { finalizers: opts.finalizers } : {}) },
    spec: opts.spec ?? { color: 'red', replicas: 1 },
  };
}

/** /apis/example.com/v1/namespaces/NS/widgets[/NAME] */
export function widgetsPath(namespace: string, name?: string): string {
  return `/apis/example.com/v1/namespaces/${namespace}/widgets${name ? `/${name}` : ''}`;
}

/** Creates a widget and returns the stored object; fails unless the server answers 201. */
export async function createWidget(server: TestServer, namespace: string, name: string, opts: WidgetOptions = {}): Promise<any> {
  const res = await server.request('POST', widgetsPath(namespace), { body: widget(name, opts) });
  if (res.status !== 201) throw new Error(`creating widget ${namespace}/${name}: ${res.status} ${res.text}`);
  return res.body;
}

/** The names of a list's items, in the order served. */
export function names(list: { items: { metadata: { name: string } }[] }): string[] {
  return list.items.map((i) => i.metadata.name);
}

export interface ExpectedStatus {
  code: number;
  reason: string;
  message?: string;
}

/** Asserts a failure `Status` response: HTTP code, kind/apiVersion/status/code/reason, and the message when given. */
export function expectStatus(t: ExecutionContext, res: TestResponse, expected: ExpectedStatus): void {
  t.is(res.status, expected.code, `HTTP status (body: ${res.text.slice(0, 500)})`);
  t.like(res.body, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: expected.code, reason: expected.reason }, 'Status body');
  if (expected.message !== undefined) t.is(res.body?.message, expected.message, 'Status message');
}
