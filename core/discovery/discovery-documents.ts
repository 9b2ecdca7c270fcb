import type { APIServiceRegistry, RemoteDiscovery } from '../contracts/api-services.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { AggregatedDiscoveryVersion } from './aggregated-discovery.js';
import { groupDiscovery, groupDiscoveryList } from './aggregated-discovery.js';
import { contentHash } from '../../lib/k8s/content-hash.js';
import { apiGroupDocument, apiGroupList, apiResourceList } from './legacy-discovery.js';
import type { ServedGroup } from './served-groups.js';
import { servedGroups } from './served-groups.js';

/** An APIGroupDiscoveryList serialized in each served version, with the ETag hash of its items. */
export interface AggregatedDocument {
  hash: string;
  body: Record<AggregatedDiscoveryVersion, string>;
}

export interface GroupDocuments {
  /** APIGroup */
  group: object;
  /** APIResourceList by version */
  versions: Map<string, object>;
}

/**
 * Every discovery document of one generation of the registry, the service-backed APIServices and what is known of
 * their backends' discovery, except /api (it names the host the client used) and the APIResourceLists of remote
 * group-versions (their backends serve them).
 */
export interface DiscoveryDocuments {
  /** APIResourceList of /api/v1 */
  coreResources: object;
  /** APIGroupList of /apis */
  apiGroupList: object;
  /** /apis/GROUP and /apis/GROUP/VERSION */
  groups: Map<string, GroupDocuments>;
  aggregatedApi: AggregatedDocument;
  aggregatedApis: AggregatedDocument;
}

/** What discovery is built from: the served types, and when aggregation is composed in, the remote group-versions. */
export interface DiscoverySources {
  registry: ResourceRegistry;
  apiServices?: APIServiceRegistry;
  remoteDiscovery?: RemoteDiscovery;
}

export function buildDiscoveryDocuments({ registry, apiServices, remoteDiscovery }: DiscoverySources): DiscoveryDocuments {
  const all = servedGroups(registry, apiServices?.remotes() ?? []);
  const core = all.find((g) => g.name === '');
  const groups = all.filter((g) => g.name !== '');
  const coreV1 = core?.versions.find((v) => v.version === 'v1') ?? { version: 'v1', resources: [] };
  return {
    coreResources: apiResourceList('', coreV1),
    apiGroupList: apiGroupList(groups),
    groups: new Map(
      groups.map((g) => [
        g.name,
        { group: apiGroupDocument(g), versions: new Map(g.versions.filter((v) => !v.remote).map((v) => [v.version, apiResourceList(g.name, v)])) },
      ]),
    ),
    aggregatedApi: aggregated([{ name: '', versions: [coreV1] }], remoteDiscovery),
    aggregatedApis: aggregated(groups, remoteDiscovery),
  };
}

function aggregated(groups: ServedGroup[], remoteDiscovery: RemoteDiscovery | undefined): AggregatedDocument {
  const items = groups.map((g) => groupDiscovery(g, remoteDiscovery));
  return {
    hash: contentHash(JSON.stringify(items)),
    body: { v2: JSON.stringify(groupDiscoveryList('v2', items)), v2beta1: JSON.stringify(groupDiscoveryList('v2beta1', items)) },
  };
}
