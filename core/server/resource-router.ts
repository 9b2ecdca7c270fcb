import type { Context } from 'koa';
import type { RequestInfo } from '../request/request-info.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { KVStore } from '../contracts/kv-store.js';
import type { StorageTransformers } from '../contracts/value-transformer.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { WritePipeline } from '../rest/write-pipeline.js';
import type { RequestScope } from '../handlers/request-scope.js';
import type { CodecSet } from '../codec/codec-set.js';
import type { WatchCaches } from '../watch/watch-caches.js';
import type { WatchCacheConfig } from '../contracts/server-config.js';
import { errors } from '../contracts/api-error.js';
import { ResourceStore } from '../store/resource-store.js';
import { GenericStore } from '../rest/generic-store.js';
import { isPlainJsonAccept, negotiate, type Endpoint } from '../codec/negotiation.js';
import { apiVersionOf, type ResourceType } from '../contracts/resource-type.js';
import { handleGet } from '../handlers/get-handler.js';
import { handleList } from '../handlers/list-handler.js';
import { handleWatch } from '../handlers/watch-handler.js';
import { handleCreate } from '../handlers/create-handler.js';
import { handleUpdate } from '../handlers/update-handler.js';
import { handlePatch } from '../handlers/patch-handler.js';
import { handleDelete } from '../handlers/delete-handler.js';
import { handleDeleteCollection } from '../handlers/delete-collection-handler.js';
import { handleScale } from '../handlers/scale-handler.js';
import { deprecationWarning } from './deprecation-warning.js';
import { addWarnings } from '../handlers/warnings.js';
import { servedSubresources } from '../discovery/served-subresources.js';
import { routeToStorage } from '../handlers/rest-storage/storage-dispatch.js';
import { markServed } from '../metrics/request-metrics.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';

export interface ResourceRouterDeps {
  registry: ResourceRegistry;
  kv: KVStore;
  /** How values are stored (encryption at rest); absent: as they are. */
  transformers?: StorageTransformers;
  pipeline: WritePipeline;
  maxBodyBytes: number;
  codecs: CodecSet;
  caches: WatchCaches;
  watchConfig: WatchCacheConfig;
  /** Where watch events are counted. */
  metrics?: ServerMetrics;
}


/** Dispatches a resource request to the handler of its verb. */
export async function routeResource(
  ctx: Context,
  info: RequestInfo,
  query: URLSearchParams,
  user: UserInfo,
  deps: ResourceRouterDeps,
  authorizeVerb?: (verb: string) => Promise<void>,
): Promise<void> {
  const rt = deps.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!rt) throw errors.pathNotFound();
  markServed(ctx);
  const version = rt.versions.find((v) => v.name === info.apiVersion)!;
  // The scope first, as kube's CRD handler checks it before subresources.
  if (rt.scope === 'Cluster' && info.namespace) throw errors.pathNotFound();
  if (rt.scope === 'Namespaced' && !info.namespace && info.verb !== 'list' && info.verb !== 'watch') {
    // Only lists and watches span all namespaces: kube's CRD handler passes anything else on (404), and a built-in's
    // all-namespaces path takes GET alone (405).
    throw rt.definedBy || info.name ? errors.pathNotFound() : errors.methodNotAllowed();
  }
  if (info.subresource) {
    // Every other verb on a served subresource is 405, as in kube.
    const served = servedSubresources(rt, version).find((s) => s.name === info.subresource);
    // kube's CRD handler answers a subresource it does not serve as a missing object; a built-in has no such route
    if (!served) throw rt.definedBy ? errors.notFound({ group: rt.group, resource: rt.names.plural, name: info.name }) : errors.pathNotFound();
    if (!served.verbs.includes(info.verb)) throw errors.methodNotAllowed();
  } else if (rt.storage && info.verb === 'watch' && !rt.storage.watch && rt.storage.list) {
    // kube's list handler answers a watch itself when the storage cannot watch.
    throw errors.methodNotSupported({ group: rt.group, resource: rt.names.plural }, 'watch');
  } else if (!rt.verbs.includes(info.verb) && (info.verb !== 'watch' || rt.storage)) {
    // A resource with its own storage serves exactly the verbs it implements.
    throw errors.methodNotAllowed();
  }
  if ((info.verb === 'update' || info.verb === 'patch') && !info.name) {
    // a collection takes no PUT or PATCH: kube's CRD handler finds no name in the path, a built-in has no such route
    throw rt.definedBy ? errors.badRequest('name must be provided') : errors.methodNotAllowed();
  }
  if (rt.definedBy?.terminating && info.verb === 'create' && !info.subresource) {
    throw errors.methodNotSupported({ group: rt.group, resource: rt.names.plural }, 'create', 'create not allowed while custom resource definition is terminating');
  }
  const accept = ctx.get('accept');
  const negotiated = isPlainJsonAccept(accept) ? deps.codecs.plainJson : negotiate(accept, deps.codecs, endpoint(rt, info));
  if (version.deprecated) addWarnings(ctx, [deprecationWarning(rt, version)]);
  // A storage's subresource may belong to a resource of the generic store too (a ServiceAccount's token).
  if (rt.storage || (info.subresource && rt.storageSubresources?.[info.subresource])) {
    const base = {
      ctx,
      info,
      rt,
      version: info.apiVersion,
      versionDef: version,
      query,
      user,
      negotiated,
      pipeline: deps.pipeline,
      codecs: deps.codecs,
      ...(authorizeVerb ? { authorizeVerb } : {}),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
    };
    return routeToStorage(base, deps.maxBodyBytes, deps.watchConfig.bookmarkIntervalMs);
  }

  const store = new ResourceStore(deps.kv, rt, deps.transformers);
  const scope: RequestScope = {
    ctx,
    info,
    rt,
    version: info.apiVersion,
    versionDef: version,
    store,
    writer: new GenericStore(store),
    cache: deps.caches.forResource(rt),
    watchConfig: deps.watchConfig,
    query,
    user,
    negotiated,
    pipeline: deps.pipeline,
    codecs: deps.codecs,
    ...(authorizeVerb ? { authorizeVerb } : {}),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  };
  const max = deps.maxBodyBytes;
  if (info.subresource === 'scale') return handleScale(scope, max);
  switch (info.verb) {
    case 'get':
      return handleGet(scope);
    case 'list':
      return handleList(scope);
    case 'watch':
      return handleWatch(scope);
    case 'create':
      return handleCreate(scope, max);
    case 'update':
      return handleUpdate(scope, max);
    case 'patch':
      return handlePatch(scope, max);
    case 'delete':
      return handleDelete(scope, max);
    case 'deletecollection':
      return handleDeleteCollection(scope, max);
    default:
      throw errors.methodNotAllowed();
  }
}

/**
 * What the request's endpoint answers with, for content negotiation: the resource's kind decides which codecs serve
 * it, subresources included (kube's StandardSerializers are per resource: no protobuf for custom resources).
 */
function endpoint(rt: ResourceType, info: RequestInfo): Endpoint {
  const list = info.verb === 'list' || info.verb === 'deletecollection';
  return {
    apiVersion: apiVersionOf(rt.group, info.apiVersion),
    kind: list ? rt.names.listKind : rt.names.kind,
    list,
    conversions: info.verb === 'get' || info.verb === 'list' || info.verb === 'watch',
    watch: info.verb === 'watch',
  };
}
