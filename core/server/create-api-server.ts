import 'reflect-metadata';
import http from 'node:http';
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';
import { container as rootContainer, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { Tokens } from '../contracts/tokens.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { ResourceTypeRegistry } from '../registry/resource-registry.js';
import { enabledResourceTypes } from '../registry/resource-enablement.js';
import { resolveServerConfig, type ServerConfig } from '../contracts/server-config.js';
import type { ApiServer, ApiServerOptions, ListenOptions } from './api-server.js';
import { createHttpApp } from './http-app.js';
import { connectionTimeoutOptions } from './connection-timeouts.js';
import { http1HeaderLimits } from './request-header-limits.js';
import { createSecureServer } from './secure-server.js';
import { Http2Sessions } from './http2-sessions.js';
import { addHeadersDistinct, isHttp2 } from './http2-requests.js';
import { serveUpgradeRequests } from './upgrade-requests.js';
import { answerClientError } from './client-error-answer.js';
import { WritePipeline } from '../rest/write-pipeline.js';
import { validationStage } from '../rest/validation-stage.js';
import { AdmissionChain, selectAdmissionPlugins } from '../admission/admission-chain.js';
import type { Controller } from '../contracts/controller.js';
import type { Authorizer } from '../contracts/authorizer.js';
import { WatchCaches } from '../watch/watch-caches.js';
import { CacheInformers } from '../watch/cache-informers.js';
import { LoopbackClients } from '../rest/loopback-clients.js';
import { registerModules } from './module-registration.js';
import { Compactor } from '../storage/compactor.js';
import { CodecSet } from '../codec/codec-set.js';
import { AuthorizationChain } from '../contracts/authorizer.js';
import { Auditor } from '../audit/auditor.js';
import { registeredServiceResolver } from '../contracts/registered-service-resolver.js';
import { AggregationProxy } from './aggregation-proxy.js';
import { ServerMetrics } from '../metrics/server-metrics.js';
import { instrumentedKVStore } from '../metrics/instrumented-kv-store.js';
import { metricsRoute } from '../metrics/metrics-route.js';
import { statuszRoute } from '../zpages/statusz-route.js';
import { flagzRoute } from '../zpages/flagz-route.js';
import { createRequestLimiter } from './flowcontrol/create-request-limiter.js';
import { GracefulShutdown } from './graceful-shutdown.js';

/** All registrations of a "many" token, or none (tsyringe throws when there are none). */
export function resolveAllOrNone<T>(c: DependencyContainer, token: InjectionToken<T>): T[] {
  return c.isRegistered(token, true) ? c.resolveAll(token) : [];
}

/** The controllers whose resources are all served (the others' were disabled by the runtime configuration). */
function servedControllers(controllers: Controller[], registry: ResourceTypeRegistry): Controller[] {
  return controllers.filter((c) => (c.resources ?? []).every((r) => registry.get(r.group, r.resource)));
}

/** Auditing needs a policy (kube: --audit-policy-file) and somewhere to send events. */
function createAuditor(container: DependencyContainer): Auditor | undefined {
  const backends = resolveAllOrNone(container, Tokens.AuditBackend);
  if (!container.isRegistered(Tokens.AuditPolicy, true) || backends.length === 0) return undefined;
  return new Auditor(container.resolve(Tokens.AuditPolicy), backends);
}

/**
 * The proxy to aggregated API servers, when the server follows APIServices (`Tokens.APIServices`): each service-backed
 * one with whether its Available condition is True, read from the APIService informer as kube's proxy handler is told.
 */
async function aggregationProxy(container: DependencyContainer, config: ServerConfig): Promise<AggregationProxy | undefined> {
  const apiServices = container.resolve(Tokens.Registry).lookup('apiregistration.k8s.io', 'v1', 'apiservices');
  if (!apiServices || !container.isRegistered(Tokens.APIServices, true)) return undefined;
  const remotes = container.resolve(Tokens.APIServices);
  const objects = container.resolve(Tokens.Informers).forResource(apiServices);
  await Promise.all([remotes.synced(), objects.synced()]);
  const lookup = (group: string, version: string) => {
    const remote = remotes.remote(group, version);
    return remote && { remote, available: isAvailable(objects.current().get(remote.name)) };
  };
  return new AggregationProxy(lookup, registeredServiceResolver(container), config.proxyClient);
}

/** Whether an APIService's Available condition is True. */
function isAvailable(apiService: KubeObject | undefined): boolean {
  const conditions = (apiService as { status?: { conditions?: { type: string; status: string }[] } } | undefined)?.status?.conditions;
  return conditions?.some((c) => c.type === 'Available' && c.status === 'True') ?? false;
}

/** The component name kapi gives itself on /statusz and /flagz (kube-apiserver's are "kube-apiserver"). */
const componentName = 'kapi';

/**
 * Builds an API server from modules. Nothing runs until `listen`: then built-in resource types are registered,
 * controllers start (CRDs are loaded, namespaces bootstrapped) and the HTTP(S) server binds.
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const container = rootContainer.createChildContainer();
  const config: ServerConfig = resolveServerConfig(options.config);
  container.registerInstance(Tokens.Config, config);
  const registry = new ResourceTypeRegistry();
  container.registerInstance(Tokens.Registry, registry);
  const informers = new CacheInformers();
  container.registerInstance(Tokens.Informers, informers);
  const objects = new LoopbackClients(registry);
  container.registerInstance(Tokens.Objects, objects);
  let authorizers: Authorizer[] | undefined;
  const authorization = new AuthorizationChain(() => (authorizers ??= resolveAllOrNone(container, Tokens.Authorizer)));
  container.registerInstance(Tokens.Authorization, authorization);
  const metrics = new ServerMetrics();
  container.registerInstance(Tokens.Metrics, metrics);
  registerModules(container, options.modules, [Tokens.Config, Tokens.Registry, Tokens.Informers, Tokens.Objects, Tokens.Authorization, Tokens.Metrics]);
  registry.useStrategies(resolveAllOrNone(container, Tokens.Strategy));
  const graceful = new GracefulShutdown();
  container.register(Tokens.HealthCheck, { useValue: graceful.readyzCheck }); // after the modules' checks, as kube lists it last

  let server: http.Server | Http2SecureServer | undefined;
  let controllers: Controller[] = [];
  let caches: WatchCaches | undefined;
  let auditor: Auditor | undefined;
  const sockets = new Set<Socket>();
  const sessions = new Http2Sessions(config.idleConnectionTimeoutMs);
  let stopped: Promise<void> | undefined;
  let shuttingDown: Promise<void> | undefined;
  /** Closes the listener and idle connections, once; resolves when every connection has closed (`close()` cuts them). */
  const stopListening = (): Promise<void> => {
    const s = server;
    if (s && !stopped) {
      stopped = new Promise<void>((resolve) => s.close(() => resolve()));
      sessions.closeAll();
    }
    return stopped ?? Promise.resolve();
  };

  const api: ApiServer = {
    container,
    async listen(opts: ListenOptions) {
      // First: a runtime configuration kube would refuse stops the server before it opens anything.
      const builtinTypes = enabledResourceTypes(resolveAllOrNone(container, Tokens.BuiltinResource), config.runtimeConfig);
      const kv = instrumentedKVStore(container.resolve(Tokens.KVStore), metrics.storageRequestDuration);
      const transformers = container.isRegistered(Tokens.StorageTransformers, true) ? container.resolve(Tokens.StorageTransformers) : undefined;
      for (const rt of builtinTypes) registry.set(rt);
      const plugins = selectAdmissionPlugins(resolveAllOrNone(container, Tokens.AdmissionPlugin), config.admissionPlugins);
      const pipeline = new WritePipeline(new AdmissionChain(plugins, metrics.admissionStepDuration), [validationStage]);
      objects.attach(kv, pipeline, transformers);
      caches = new WatchCaches(kv, registry, config.watchCache, transformers);
      caches.start(); // before the controllers, so CRDs they establish get their caches as they are registered
      const servedCaches = caches;
      metrics.countStoredObjects(() => servedCaches.objectCounts());
      informers.attach(caches);
      controllers = [new Compactor(kv, config.compactionIntervalMs), ...servedControllers(resolveAllOrNone(container, Tokens.Controller), registry)];
      for (const c of controllers) await c.start();

      auditor = createAuditor(container);
      const aggregation = await aggregationProxy(container, config);
      const limiter = await createRequestLimiter(container, config, registry, caches);
      container.registerInstance(Tokens.FlowControlStats, limiter);
      metrics.followFlowControl(limiter);
      const app = createHttpApp({
        registry,
        kv,
        transformers,
        pipeline,
        maxBodyBytes: config.maxRequestBodyBytes,
        codecs: new CodecSet(resolveAllOrNone(container, Tokens.Codec)),
        caches,
        watchConfig: config.watchCache,
        authenticators: resolveAllOrNone(container, Tokens.Authenticator),
        authorization,
        routes: [...resolveAllOrNone(container, Tokens.Route), metricsRoute(metrics.registry), statuszRoute(componentName, config.version), flagzRoute(componentName, config.flags ?? {})],
        metrics,
        ...(auditor ? { auditor } : {}),
        anonymousAuth: config.anonymousAuth,
        ...(aggregation ? { aggregation } : {}),
        limiter,
        shutdownFilter: graceful.filter,
      });
      const callback = app.callback();
      const handler = (req: http.IncomingMessage | Http2ServerRequest, res: http.ServerResponse | Http2ServerResponse) => {
        if (isHttp2(req)) addHeadersDistinct(req);
        return callback(req as http.IncomingMessage, res as http.ServerResponse);
      };
      server = opts.tls ? createSecureServer(opts.tls, config, handler) : http.createServer({ ...connectionTimeoutOptions(config), ...http1HeaderLimits }, handler);
      server.on('clientError', answerClientError); // HTTP/1.1's; an HTTP/2 session's protocol errors are node:http2's
      serveUpgradeRequests(server, callback);
      server.on('session', (session) => sessions.add(session));
      // Track connections so close() can end long-running watches instead of waiting for them.
      server.on(opts.tls ? 'secureConnection' : 'connection', (s: Socket) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      const s = server;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(opts.port, opts.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : opts.port;
      const host = opts.host;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      return { host, port, url: `${opts.tls ? 'https' : 'http'}://${urlHost}:${port}` };
    },
    shutdown(opts = {}) {
      shuttingDown ??= graceful.run(opts, stopListening).then(() => api.close());
      return shuttingDown;
    },
    async close() {
      if (server) {
        const closed = stopListening();
        server = undefined;
        stopped = undefined;
        sessions.destroyAll();
        for (const socket of sockets) socket.destroy();
        await closed;
      }
      await auditor?.shutdown(); // every request has ended: its events are all handed over
      auditor = undefined;
      for (const c of controllers.reverse()) await c.stop();
      controllers = [];
      informers.stop();
      caches?.stop();
      caches = undefined;
      if (container.isRegistered(Tokens.KVStore, true)) await container.resolve(Tokens.KVStore).close();
    },
  };
  return api;
}
