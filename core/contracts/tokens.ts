import type { InjectionToken } from 'tsyringe';
import type { KVStore } from './kv-store.js';
import type { Authenticator } from './authenticator.js';
import type { AuthorizationChain, Authorizer } from './authorizer.js';
import type { HealthCheck } from './health-check.js';
import type { ResourceType } from './resource-type.js';
import type { ServerRoute } from './route.js';
import type { Controller } from './controller.js';
import type { ResourceRegistry } from './resource-registry.js';
import type { AdmissionPlugin } from './admission-plugin.js';
import type { NamespaceLookup } from './namespace-lookup.js';
import type { Codec } from './codec.js';
import type { Informers } from './informer.js';
import type { ObjectClients } from './object-client.js';
import type { StrategyRegistration } from './define-strategy.js';
import type { ServiceResolver } from './service-resolver.js';
import type { StorageTransformers } from './value-transformer.js';
import type { AuditBackend, AuditPolicy } from './audit.js';
import type { APIServiceRegistry, RemoteDiscovery, RemoteOpenAPI } from './api-services.js';
import type { Metrics } from './metrics.js';
import type { FlowControlConfiguration, FlowControlStats } from './flowcontrol.js';

function token<T>(name: string): InjectionToken<T> {
  return Symbol.for(`kapi.${name}`) as InjectionToken<T>;
}

/**
 * The container tokens modules register providers under. Tokens marked "many" take any number of registrations and
 * are resolved with `container.resolveAll`.
 */
export const Tokens = {
  /** The one storage engine (KV contract). */
  KVStore: token<KVStore>('KVStore'),
  /** many: asked in registration order. */
  Authenticator: token<Authenticator>('Authenticator'),
  /** many: asked in registration order. */
  Authorizer: token<Authorizer>('Authorizer'),
  /** The registered authorizers asked as one, in order (registered by kapi; access reviews and admission ask it). */
  Authorization: token<AuthorizationChain>('Authorization'),
  /** many: served under /healthz, /livez, /readyz. */
  HealthCheck: token<HealthCheck>('HealthCheck'),
  /** many: resource types served from the start (built-in kinds, resources with their own storage: resourceModule). */
  BuiltinResource: token<ResourceType>('BuiltinResource'),
  /** many: extra non-resource HTTP routes (e.g. /version, /openapi/v2). */
  Route: token<ServerRoute>('Route'),
  /** many: background loops started with the server (CRD names, namespace cleanup, ...). */
  Controller: token<Controller>('Controller'),
  /** The live set of served resource types. */
  Registry: token<ResourceRegistry>('Registry'),
  /** many: in-process admission plugins; enabled and ordered by `ServerConfig.admissionPlugins`. */
  AdmissionPlugin: token<AdmissionPlugin>('AdmissionPlugin'),
  /** many: strategy hooks for a group/kind (defineStrategy), run after the type's own, in registration order. */
  Strategy: token<StrategyRegistration>('Strategy'),
  /** Finds namespaces (registered by the namespaces module; used by namespace lifecycle admission). */
  NamespaceLookup: token<NamespaceLookup>('NamespaceLookup'),
  /** many: wire formats (JSON, YAML, protobuf, CBOR), negotiated per request from Accept and Content-Type. */
  Codec: token<Codec>('Codec'),
  /** The shared informers: any resource's objects, followed through the server's watch caches. */
  Informers: token<Informers>('Informers'),
  /** Clients that read and write any resource through the server's write path (for controllers; from `start` on). */
  Objects: token<ObjectClients>('Objects'),
  /** The server's settings (ServerConfig). */
  Config: token<import('./server-config.js').ServerConfig>('Config'),
  /** Where webhooks' `clientConfig.service` is dialled (registered by the services module). */
  ServiceResolver: token<ServiceResolver>('ServiceResolver'),
  /** How stored values are transformed per resource: encryption at rest (absent: stored as they are). */
  StorageTransformers: token<StorageTransformers>('StorageTransformers'),
  /** The audit policy (validated); without one nothing is audited, as kube-apiserver without --audit-policy-file. */
  AuditPolicy: token<AuditPolicy>('AuditPolicy'),
  /** many: where audit events go (an audit log file, a user's own sink). */
  AuditBackend: token<AuditBackend>('AuditBackend'),
  /** The service-backed APIServices, for proxying and discovery (registered by the apiregistration module). */
  APIServices: token<APIServiceRegistry>('APIServices'),
  /** The fetched discovery of remote group-versions (registered by the aggregation layer; absent: listed Stale). */
  RemoteDiscovery: token<RemoteDiscovery>('RemoteDiscovery'),
  /** The OpenAPI documents of remote group-versions (registered by the aggregation layer; absent: not in /openapi). */
  RemoteOpenAPI: token<RemoteOpenAPI>('RemoteOpenAPI'),
  /** The server's Prometheus registry (registered by kapi), for modules' own metrics (e.g. apiserver_flowcontrol_*). */
  Metrics: token<Metrics>('Metrics'),
  /** The FlowSchemas and priority levels requests are classified by (registered by the flowcontrol module; absent: max-in-flight). */
  FlowControlConfiguration: token<FlowControlConfiguration>('FlowControlConfiguration'),
  /** The request limiter's counters (registered by kapi when the server listens), for a metrics exporter. */
  FlowControlStats: token<FlowControlStats>('FlowControlStats'),
} as const;

/** The tokens that take one provider (the others take any number: `container.resolveAll`). */
export const singleValuedTokens: ReadonlySet<InjectionToken<unknown>> = new Set<InjectionToken<unknown>>([
  Tokens.KVStore,
  Tokens.Registry,
  Tokens.NamespaceLookup,
  Tokens.Informers,
  Tokens.Objects,
  Tokens.Config,
  Tokens.ServiceResolver,
  Tokens.StorageTransformers,
  Tokens.AuditPolicy,
  Tokens.Authorization,
  Tokens.APIServices,
  Tokens.RemoteDiscovery,
  Tokens.RemoteOpenAPI,
  Tokens.Metrics,
  Tokens.FlowControlConfiguration,
  Tokens.FlowControlStats,
]);

/**
 * The tokens a user's module registers providers under (the package entry exports them as `Tokens`). The others (the
 * registry of served types, the namespace lookup) are kapi's inner wiring between its own folders, free to change.
 */
export const PublicTokens = {
  KVStore: Tokens.KVStore,
  Authenticator: Tokens.Authenticator,
  Authorizer: Tokens.Authorizer,
  Authorization: Tokens.Authorization,
  HealthCheck: Tokens.HealthCheck,
  BuiltinResource: Tokens.BuiltinResource,
  Route: Tokens.Route,
  Controller: Tokens.Controller,
  AdmissionPlugin: Tokens.AdmissionPlugin,
  Strategy: Tokens.Strategy,
  Codec: Tokens.Codec,
  Informers: Tokens.Informers,
  Objects: Tokens.Objects,
  Config: Tokens.Config,
  ServiceResolver: Tokens.ServiceResolver,
  StorageTransformers: Tokens.StorageTransformers,
  AuditPolicy: Tokens.AuditPolicy,
  AuditBackend: Tokens.AuditBackend,
  Metrics: Tokens.Metrics,
} as const;
