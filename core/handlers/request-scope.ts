import type { Context } from 'koa';
import type { RequestInfo } from '../request/request-info.js';
import type { ResourceType, ResourceVersionDef } from '../contracts/resource-type.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { Negotiated } from '../codec/negotiated.js';
import type { GenericStore } from '../rest/generic-store.js';
import type { ResourceWriter } from '../rest/resource-writer.js';
import type { ResourceStore } from '../store/resource-store.js';
import type { WritePipeline } from '../rest/write-pipeline.js';
import type { CodecSet } from '../codec/codec-set.js';
import type { WatchCache } from '../watch/watch-cache.js';
import type { WatchCacheConfig } from '../contracts/server-config.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';

/** What every handler of a resource request knows, whatever serves the resource. */
export interface ResourceScope {
  ctx: Context;
  info: RequestInfo;
  rt: ResourceType;
  /** The API version the client addressed (the response is in this version). */
  version: string;
  /** The served version's definition (schema, printer columns, subresources). */
  versionDef: ResourceVersionDef;
  query: URLSearchParams;
  user: UserInfo;
  /** How to encode the response (resolved lazily: writes decode first, then negotiate). */
  negotiated: Negotiated;
  pipeline: WritePipeline;
  /** The registered codecs: request bodies are decoded by the one their Content-Type names. */
  codecs: CodecSet;
  /** Where writes go: the generic store, or the resource's own storage. */
  writer: ResourceWriter;
  /**
   * Authorizes this request as another verb for its user (kube's withAuthorization, for a PUT that creates); throws
   * kube's 403. Absent on a server that does not authorize requests.
   */
  authorizeVerb?: (verb: string) => Promise<void>;
  /** The server's metrics (watch events are counted there); absent in a handler used on its own. */
  metrics?: ServerMetrics;
}

/** Everything a verb handler of the generic store needs about one resource request. */
export interface RequestScope extends ResourceScope {
  writer: GenericStore;
  /** Reads that bypass the watch cache. */
  store: ResourceStore;
  /** The resource's watch cache (lists, watches and resourceVersion reads are served from it). */
  cache: WatchCache;
  watchConfig: WatchCacheConfig;
}

export type VerbHandler = (scope: RequestScope) => Promise<void>;
