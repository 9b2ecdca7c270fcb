import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { AggregatedDiscoveryVersion } from './aggregated-discovery.js';
import { groupDiscovery, groupDiscoveryList } from './aggregated-discovery.js';
import { contentHash } from './content-hash.js';
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

/** Every discovery document of one registry generation, except /api (it names the host the client used). */
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

export function buildDiscoveryDocuments(registry: ResourceRegistry): DiscoveryDocuments {
  const all = servedGroups(registry);
  const core = all.find((g) => g.name === '');
  const groups = all.filter((g) => g.name !== '');
  const coreV1 = core?.versions.find((v) => v.version === 'v1') ?? { version: 'v1', resources: [] };
  return {
    coreResources: apiResourceList('', coreV1),
    apiGroupList: apiGroupList(groups),
    groups: new Map(
      groups.map((g) => [g.name, { group: apiGroupDocument(g), versions: new Map(g.versions.map((v) => [v.version, apiResourceList(g.name, v)])) }]),
    ),
    aggregatedApi: aggregated([{ name: '', versions: [coreV1] }]),
    aggregatedApis: aggregated(groups),
  };
}

function aggregated(groups: ServedGroup[]): AggregatedDocument {
  const items = groups.map(groupDiscovery);
  return {
    hash: contentHash(JSON.stringify(items)),
    body: { v2: JSON.stringify(groupDiscoveryList('v2', items)), v2beta1: JSON.stringify(groupDiscoveryList('v2beta1', items)) },
  };
}
