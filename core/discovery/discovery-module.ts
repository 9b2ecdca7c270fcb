import { errors } from '../contracts/api-error.js';
import { defineModule, resolveOptionalLater, type Module } from '../contracts/module.js';
import type { RouteContext, ServerRoute } from '../contracts/route.js';
import { Tokens } from '../contracts/tokens.js';
import { respondAggregated } from './aggregated-response.js';
import { aggregatedDiscoveryVersion } from './discovery-accept.js';
import type { AggregatedDocument, DiscoveryDocuments } from './discovery-documents.js';
import { buildDiscoveryDocuments } from './discovery-documents.js';
import { GenerationCache } from './generation-cache.js';
import { apiVersions } from './legacy-discovery.js';
import { versionRoute } from './version-route.js';

/**
 * API discovery as kube-apiserver serves it: /api, /api/v1, /apis, /apis/GROUP, /apis/GROUP/VERSION (legacy documents,
 * or aggregated discovery on /api and /apis when Accept asks for it), and /version. The groups of service-backed
 * APIServices are listed with the served ones (when the apiregistration module is composed in); their
 * /apis/GROUP/VERSION is the aggregation proxy's. Documents are rebuilt only when one of their sources changes.
 */
export function discoveryModule(): Module {
  return defineModule('discovery', (container) => {
    const apiServices = resolveOptionalLater(container, Tokens.APIServices);
    const remoteDiscovery = resolveOptionalLater(container, Tokens.RemoteDiscovery);
    const cache = new GenerationCache((registry) => buildDiscoveryDocuments({ registry, apiServices: apiServices(), remoteDiscovery: remoteDiscovery() }));
    const docs = () => cache.get(container.resolve(Tokens.Registry), apiServices(), remoteDiscovery());
    const routes: ServerRoute[] = [
      { path: '/api', handle: (ctx) => respondRoot(ctx, docs().aggregatedApi, () => apiVersions(ctx.host)) },
      {
        path: '/api/v1',
        handle(ctx) {
          ctx.body = docs().coreResources;
        },
      },
      { path: '/apis', handle: (ctx) => respondRoot(ctx, docs().aggregatedApis, () => docs().apiGroupList) },
      {
        path: '/apis/*',
        handle(ctx) {
          ctx.body = groupDocument(docs(), ctx.path);
        },
      },
      versionRoute(container),
    ];
    for (const route of routes) container.register(Tokens.Route, { useValue: route });
  });
}

function respondRoot(ctx: RouteContext, aggregated: AggregatedDocument, legacy: () => object): void {
  const version = aggregatedDiscoveryVersion(ctx.get('Accept'));
  if (version) respondAggregated(ctx, aggregated, version);
  else ctx.body = legacy();
}

/** The APIGroup of /apis/GROUP or the APIResourceList of /apis/GROUP/VERSION. */
function groupDocument(docs: DiscoveryDocuments, path: string): object {
  const [group = '', version, ...rest] = path.slice('/apis/'.length).split('/').filter(Boolean);
  const found = docs.groups.get(group);
  const doc = version === undefined ? found?.group : found?.versions.get(version);
  if (!doc || rest.length) throw errors.pathNotFound();
  return doc;
}
