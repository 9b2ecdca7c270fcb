/**
 * kapi's public API: build a Kubernetes-style API server from modules.
 *
 *   const server = createApiServer({ modules: defaultModules({ storage: 'sqlite', dataDir: '.kapi' }) });
 *   await server.listen({ port: 6443, host: '127.0.0.1' });
 */
import 'reflect-metadata';
import { join } from 'node:path';
import type { Module } from './core/contracts/module.js';
import { namespacesModule } from './builtin/namespaces/namespaces-module.js';
import { configMapsModule } from './builtin/configmaps/configmaps-module.js';
import { secretsModule } from './builtin/secrets/secrets-module.js';
import { serviceAccountsModule, type ServiceAccountsOptions } from './builtin/serviceaccounts/serviceaccounts-module.js';
import { serviceAccountTokenAuth } from './plugins/auth/service-account-token-authenticator.js';
import { jwtAuthentication, type JwtAuthenticationOptions } from './plugins/auth/jwt/jwt-authentication.js';
import type { ServiceAccountTokenConfig } from './lib/serviceaccount/token-config.js';
import { garbageCollectorModule } from './builtin/garbagecollector/garbage-collector-module.js';
import { servicesModule, type ServicesOptions } from './builtin/services/services-module.js';
import { crdsModule } from './builtin/customresourcedefinitions/crds-module.js';
import { apiregistrationModule } from './builtin/apiregistration/apiregistration-module.js';
import { authenticationApiModule, type AuthenticationApiOptions } from './builtin/authentication/authentication-module.js';
import { leasesModule } from './builtin/leases/leases-module.js';
import { flowcontrolModule } from './builtin/flowcontrol/flowcontrol-module.js';
import { accessReviewsModule } from './builtin/authorization/access-reviews-module.js';
import { rbacModule } from './builtin/rbac/rbac-module.js';
import { selfSubjectRulesReviewModule } from './builtin/authorization/self-subject-rules-review-module.js';
import { eventsModule, type EventsModuleOptions } from './builtin/events/events-module.js';
import { clusterAuthenticationTrust, type ClusterAuthenticationTrustOptions } from './builtin/clusterauthenticationtrust/cluster-authentication-trust-module.js';
import { discoveryModule } from './core/discovery/discovery-module.js';
import { openapiModule } from './core/openapi/openapi-module.js';
import { healthModule } from './core/health/health-module.js';
import { etcdStorage, memoryStorage, sqliteStorage, type EtcdStorageOptions } from './plugins/storage/index.js';
import { jsonCodec } from './plugins/codecs/json/index.js';
import { yamlCodec } from './plugins/codecs/yaml/index.js';
import { kubeProtobufCodec } from './plugins/codecs/protobuf/index.js';
import { cborCodec } from './plugins/codecs/cbor/index.js';
import { builtinAdmission, type BuiltinAdmissionOptions } from './admission/builtin-admission.js';
import { encryptionAtRest, type EncryptionAtRestOptions } from './plugins/encryption/index.js';
import { webhookTokenAuth, type WebhookTokenAuthOptions } from './plugins/auth/webhook-token-authenticator.js';

export { createApiServer } from './core/server/create-api-server.js';
export type { ApiServer, ApiServerOptions, ListenOptions, ShutdownOptions } from './core/server/api-server.js';
export type { ServerConfig, ServerConfigOverrides, WatchCacheConfig, VersionInfo } from './core/contracts/server-config.js';
export { RuntimeConfigError, type RuntimeConfig } from './core/contracts/runtime-config.js';
export type { TlsProfile, TlsMinVersion } from './core/server/tls-profile.js';
export { tlsCipherSuiteNames, unknownCipherSuite, unknownCipherSuiteMessage } from './core/server/tls-profile.js';
export { defineModule, type Module, type ModuleOptions } from './core/contracts/module.js';
export { PublicTokens as Tokens } from './core/contracts/tokens.js';
export { ApiError, errors, fieldErrors } from './core/contracts/api-error.js';
export type { Status, StatusCause } from './core/contracts/status.js';
export type { Codec, ListObject, TypeMeta, WatchFraming } from './core/contracts/codec.js';
export { maxBodyDepth } from './core/contracts/body-decoding.js';
export { duplicateFields } from './lib/codec/duplicate-fields.js';
export { summarizeBody } from './lib/codec/summarize-body.js';
export { EncodedItems } from './lib/codec/encoded-items.js';
export type { KVStore, KeyValue, KVEvent, GetOptions, GetResult, RangeOptions, RangeResult, TxnResult, KVWatch, KVWatchHandlers } from './core/contracts/kv-store.js';
export { CompactedError, FutureRevisionError } from './core/contracts/kv-store.js';
export type { StorageTransformers, ValueTransformer, TransformedValue } from './core/contracts/value-transformer.js';
// The types `kapi gen crd` maps to integer and int-or-string schemas.
export type { Int32, Int64, IntOrString } from './generators/crd/schema-types.js';
export type { ResourceType, KubeObject, ObjectMeta, ListMeta, ResourceNames, ResourceVersionDef, ResourceStrategy, PrinterColumn, ScaleSubresource, Scope } from './core/contracts/resource-type.js';
export type { JSONSchemaProps } from './lib/openapi/json-schema-props.js';
export type { TablePrinter, Table, TableColumnDefinition, TableRow } from './core/contracts/table-types.js';
export type { RestStorage, RestContext, RestListOptions, RestList, RestWatchEvent } from './core/contracts/rest-storage.js';
export { resourceModule, type ResourceModuleOptions } from './core/registry/resource-module.js';
export type { Authenticator, AuthenticationRequest, UserInfo } from './core/contracts/authenticator.js';
export { CredentialsRejected } from './core/contracts/authenticator.js';
export type { Authorizer, AuthorizerAnswer, AuthorizationAttributes, AuthorizationResult, Decision, AuthorizationChain, SubjectRules, SelectorRequirement } from './core/contracts/authorizer.js';
export type { PolicyRule } from './lib/rbac/policy-rule.js';
export type { HealthCheck } from './core/contracts/health-check.js';
export type { Metrics } from './core/contracts/metrics.js';
export type { Controller } from './core/contracts/controller.js';
export type { ServerRoute, RouteContext } from './core/contracts/route.js';
export type { Informer, InformerEvent, Informers } from './core/contracts/informer.js';
export type { ObjectClients, ObjectDeleteOptions, ResourceClient, ResourceClientOptions } from './core/contracts/object-client.js';
export type { WriteStage, WriteAttributes } from './core/rest/write-pipeline.js';
export type { AdmissionPlugin, AdmissionRule, SideEffects } from './core/contracts/admission-plugin.js';
export type { AdmissionAttributes, AdmissionOperation, GroupVersionKind, GroupVersionResource } from './core/contracts/admission-attributes.js';
export { defineAdmissionPlugin } from './core/contracts/define-admission-plugin.js';
export { defineStrategy, type StrategyRegistration } from './core/contracts/define-strategy.js';
export { admissionInvalid } from './core/contracts/admission-invalid.js';
export { NamespaceLifecycle } from './admission/namespace-lifecycle.js';
export { CreatedBy, createdByAnnotation } from './admission/created-by.js';
export { authenticationApiModule, type AuthenticationApiOptions };
export { clusterAuthenticationTrust, type ClusterAuthenticationTrustOptions };
export { namespacesModule, configMapsModule, secretsModule, serviceAccountsModule, servicesModule, leasesModule, flowcontrolModule, rbacModule, accessReviewsModule, selfSubjectRulesReviewModule, eventsModule, garbageCollectorModule, builtinAdmission, crdsModule, apiregistrationModule, discoveryModule, openapiModule, healthModule, memoryStorage, sqliteStorage, etcdStorage, encryptionAtRest, jsonCodec, yamlCodec, kubeProtobufCodec, cborCodec };
export type { EtcdStorageOptions, EncryptionAtRestOptions, BuiltinAdmissionOptions, ServiceAccountsOptions, ServiceAccountTokenConfig, EventsModuleOptions, ServicesOptions };
export { EndpointsServiceResolver, serviceURLs } from './builtin/services/service-urls.js';
export type { ServiceReference, ServiceResolver } from './core/contracts/service-resolver.js';
export { ServiceIPRange } from './builtin/services/service-ip-range.js';
export { NodePortRange } from './builtin/services/node-port-range.js';
export { staticTokenAuth, alwaysAllow, alwaysDeny, rbacAuthorization, ensurePki, ensureFrontProxyPki, frontProxyClientName, readProxyClientCertificate, ProxyClientCertificateError, ensureAdminToken, adminUser, writeKubeconfig, kubeconfigYaml, clientUrl, createClientCert } from './plugins/auth/index.js';
export { serviceAccountTokenAuth, jwtAuthentication, type JwtAuthenticationOptions };
export { webhookTokenAuth, WebhookTokenAuthenticator, type WebhookTokenAuthOptions } from './plugins/auth/webhook-token-authenticator.js';
export { TokenReviewClient, type TokenReviewVersion, type TokenReviewStatus } from './plugins/auth/token-review-client.js';
export { readKubeconfigClient, KubeconfigError, type KubeconfigClient } from './plugins/auth/kubeconfig-client.js';
export { PublishedAuthentication, publishedAuthenticationAuth, type PublishedAuthenticationAuthOptions } from './plugins/auth/published-authentication.js';
export { delegatedAuthentication, type DelegatedAuthentication, type DelegatedAuthenticationOptions } from './plugins/auth/delegated-authentication.js';
export { tokenFileAuth, readTokenFile, parseTokenFile, TokenFileError, X509ClientCertAuthenticator, x509ClientCertAuth, ClientCaError, ClientCaFile, RequestHeaderAuthenticator, requestHeaderAuth, defaultRequestHeaderNames } from './plugins/auth/index.js';
export { ensureServiceAccountSigningKey, readServiceAccountSigningKey, readServiceAccountPublicKeys } from './plugins/auth/index.js';
export type { StaticToken, Pki, FrontProxyPki, KubeconfigOptions, CertificatePem, RequestHeaderOptions } from './plugins/auth/index.js';
export {
  WebhookAuthorizer,
  webhookAuthorization,
  readAuthorizationConfiguration,
  AuthorizationConfigError,
  authorizationConfig,
  delegatedAuthorization,
  AlwaysAllowPathsAuthorizer,
  PrivilegedGroupsAuthorizer,
} from './plugins/auth/index.js';
export type {
  WebhookAuthorizerOptions,
  SubjectAccessReviewVersion,
  AuthorizationConfiguration,
  AuthorizationConfigOptions,
  DelegatedAuthorizationOptions,
} from './plugins/auth/index.js';
export type { AuditBackend, AuditEvent, AuditLevel, AuditStage, AuditPolicy, AuditPolicyRule, AuditGroupResources, AuditObjectReference, AuditUserInfo, AuditResponseStatus } from './core/contracts/audit.js';
export { configureLogging, log, type Logger, type LoggingFormat, type LoggingOptions, type LogFields, type VerboseLogger } from './lib/log/logger.js';
export { auditModule, type AuditModuleOptions } from './core/audit/audit-module.js';
export { AuditPolicyError, loadAuditPolicyFile, parseAuditPolicy } from './core/audit/audit-policy.js';
export { addAuditAnnotation } from './core/contracts/audit-annotation.js';
export { auditLog, AuditLogBackend, auditEventLine, type AuditLogOptions } from './plugins/audit/index.js';
export { ApiClient, TypedClient, TypedStatusClient, TypedInformer } from './plugins/client/index.js';
export type { ApiRequest, ApiObject, ObjectList, ResourceDescription, ListOptions, WatchOptions, WatchEvent, WriteOptions, ApplyOptions, DeleteOptions, PatchType, InformerHandlers, InformerOptions } from './plugins/client/index.js';

export interface DefaultModulesOptions {
  storage: 'sqlite' | 'memory' | 'etcd';
  /** Where the SQLite file (`kapi.db`) lives: needed for `storage: 'sqlite'` only. */
  dataDir?: string;
  /** The etcd cluster, for `storage: 'etcd'`. */
  etcd?: EtcdStorageOptions;
  /**
   * An EncryptionConfiguration file, as kube-apiserver's `--encryption-provider-config`: the resources it names are
   * stored encrypted by its providers (see encryptionAtRest).
   */
  encryptionProviderConfig?: string;
  /** `--encryption-provider-config-automatic-reload`: follow the file while serving (see encryptionAtRest). */
  encryptionProviderConfigAutomaticReload?: boolean;
  /** CRD files or folders installed at start. */
  crdPaths?: string[];
  /**
   * Authenticator and authorizer modules (none, the default: every request is anonymous and allowed). With
   * authenticators, a request without credentials is `system:anonymous` and the authorizers decide for it too.
   */
  authModules?: Module[];
  /**
   * An AdmissionConfiguration file, as kube-apiserver's `--admission-control-config-file`: the webhook and policy
   * plugins' static manifests directories (see builtinAdmission).
   */
  admissionControlConfigFile?: string;
  /**
   * An AuthenticationConfiguration file, as kube-apiserver's `--authentication-config`: its JWT issuers authenticate
   * bearer tokens after the ServiceAccount tokens (see jwtAuthentication).
   */
  authenticationConfig?: Omit<JwtAuthenticationOptions, 'disallowedIssuers'>;
  /**
   * A token webhook, as kube-apiserver's `--authentication-token-webhook-config-file` or an extension server's
   * `--authentication-kubeconfig`: the bearer tokens no other authenticator knows are reviewed by it, last in the
   * chain (see webhookTokenAuth).
   */
  tokenWebhook?: WebhookTokenAuthOptions;
  /**
   * How ServiceAccount tokens are issued and verified: with it, `serviceaccounts/token`, OpenID discovery and the
   * token authenticator (after `authModules`' authenticators, kube's chain order) are served.
   */
  serviceAccountTokens?: ServiceAccountTokenConfig;
  /** How long Events are kept after their last write, as kube-apiserver's `--event-ttl` (default one hour). */
  eventTtlMs?: number;
  /** `--service-cluster-ip-range` and `--service-node-port-range` (see servicesModule). */
  services?: ServicesOptions;
}

/**
 * The modules `kapi serve` runs: storage, encryption at rest when configured, the given auth, the codecs (JSON, YAML,
 * Kubernetes protobuf, CBOR: kube lists media types in this order), namespaces, ConfigMaps, Secrets, ServiceAccounts,
 * Services and Endpoints, leases, RBAC (its kinds, bootstrap roles and role aggregation; `rbacAuthorization()` among
 * the auth modules makes it decide), access reviews and SelfSubjectRulesReview, events, the garbage collector,
 * authentication.k8s.io (TokenReview, SelfSubjectReview), the built-in admission plugins, CRDs, APIServices,
 * discovery, OpenAPI, health.
 */
export function defaultModules(opts: DefaultModulesOptions): Module[] {
  return [
    storageModule(opts),
    ...(opts.encryptionProviderConfig
      ? [encryptionAtRest({ encryptionProviderConfig: opts.encryptionProviderConfig, automaticReload: opts.encryptionProviderConfigAutomaticReload ?? false })]
      : []),
    ...(opts.authModules ?? []),
    ...(opts.serviceAccountTokens ? [serviceAccountTokenAuth(opts.serviceAccountTokens)] : []),
    ...(opts.authenticationConfig ? [jwtAuthentication({ ...opts.authenticationConfig, disallowedIssuers: opts.serviceAccountTokens?.issuers ?? [] })] : []),
    ...(opts.tokenWebhook ? [webhookTokenAuth(opts.tokenWebhook)] : []),
    jsonCodec(),
    yamlCodec(),
    kubeProtobufCodec(),
    cborCodec(),
    namespacesModule(),
    configMapsModule(),
    secretsModule(),
    serviceAccountsModule(opts.serviceAccountTokens ? { tokens: opts.serviceAccountTokens } : {}),
    servicesModule(opts.services),
    leasesModule(),
    flowcontrolModule(),
    rbacModule(),
    accessReviewsModule(),
    selfSubjectRulesReviewModule(),
    eventsModule(opts.eventTtlMs !== undefined ? { eventTtlMs: opts.eventTtlMs } : {}),
    garbageCollectorModule(),
    authenticationApiModule(opts.serviceAccountTokens ? { apiAudiences: opts.serviceAccountTokens.audiences } : {}),
    builtinAdmission(opts.admissionControlConfigFile ? { admissionControlConfigFile: opts.admissionControlConfigFile } : {}),
    crdsModule({ crdPaths: opts.crdPaths }),
    apiregistrationModule(),
    discoveryModule(),
    openapiModule(),
    healthModule(),
  ];
}

function storageModule(opts: DefaultModulesOptions): Module {
  if (opts.storage === 'memory') return memoryStorage();
  if (opts.storage === 'sqlite') {
    // No default folder: a library should not pick where a server's data lives (`kapi serve` defaults to .kapi).
    if (opts.dataDir === undefined) throw new TypeError("storage 'sqlite' needs dataDir, the folder of its kapi.db");
    return sqliteStorage(join(opts.dataDir, 'kapi.db'));
  }
  if (!opts.etcd) throw new TypeError("storage 'etcd' needs the etcd options (endpoints)");
  return etcdStorage(opts.etcd);
}
