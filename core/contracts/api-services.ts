import type { ServiceReference } from './service-resolver.js';

/**
 * A group-version served by another server: an APIService whose `spec.service` names where kube's aggregator proxies
 * its requests (an aggregated API server such as metrics-server).
 */
export interface RemoteAPIService {
  /** The APIService's name, `version.group`. */
  name: string;
  group: string;
  version: string;
  /** The Service requests are proxied to (its port defaulted to 443). */
  service: ServiceReference;
  /** The PEM bundle that verifies the backend's serving certificate; absent: the system's trust roots. */
  caBundle?: string;
  insecureSkipTLSVerify: boolean;
  groupPriorityMinimum: number;
  versionPriority: number;
}

/**
 * The APIServices of the server as its aggregation layer needs them, followed through an informer: for a
 * group-version, the service-backed APIService that serves it, or none (served here, or not at all). The apiregistration
 * module registers it (`Tokens.APIServices`).
 */
export interface APIServiceRegistry {
  /** Bumped on every change of a service-backed APIService; caches compare it to know when to rebuild. */
  readonly generation: number;
  /** Resolves once the APIServices stored at start are known. */
  synced(): Promise<void>;
  /** The service-backed APIService of `group`/`version` (`''` for the core group), or undefined. */
  remote(group: string, version: string): RemoteAPIService | undefined;
  /** Every service-backed APIService, by name. */
  remotes(): readonly RemoteAPIService[];
  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  onChange(listener: () => void): () => void;
}

/**
 * Where aggregated discovery (apidiscovery.k8s.io/v2) finds the resources of a remote group-version: fetched from its
 * backend and cached by the aggregation layer, as kube's aggregated discovery manager does. Without one, or before a
 * version is fetched, the version is listed `Stale` with no resources, as kube lists a backend it could not read.
 */
export interface RemoteDiscovery {
  /** Bumped whenever what `versionDiscovery` returns changes. */
  readonly generation: number;
  /** The version's APIVersionDiscovery (`version`, `resources`, `freshness`), or undefined when not fetched yet. */
  versionDiscovery(remote: RemoteAPIService): object | undefined;
}

/** A backend's OpenAPI v3 document of one group-version: the JSON as it serves it, and the hash in its `?hash=` URL. */
export interface RemoteOpenAPIV3Document {
  json: string;
  hash: string;
}

/**
 * The OpenAPI documents of remote group-versions, read from their backends and cached by the aggregation layer (kube's
 * OpenAPI aggregation controllers): the front merges each backend's Swagger 2.0 spec into its /openapi/v2 and lists and
 * serves each group-version's v3 document. What was last read is kept while a backend cannot be read.
 */
export interface RemoteOpenAPI {
  /** Bumped whenever what the other methods return changes. */
  readonly generation: number;
  /** The backend's `/openapi/v2` (Swagger 2.0), or undefined when never read. */
  swagger(remote: RemoteAPIService): object | undefined;
  /** The backend's `/openapi/v3/apis/<group>/<version>`, or undefined when never read. */
  v3Document(remote: RemoteAPIService): RemoteOpenAPIV3Document | undefined;
}
