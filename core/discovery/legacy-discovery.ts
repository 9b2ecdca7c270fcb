import { apiVersionOf } from '../contracts/resource-type.js';
import type { ServedGroup, ServedResource, ServedVersion } from './served-groups.js';
import { servedSubresources } from './served-subresources.js';
import { storageVersionHash } from './storage-version-hash.js';

/** meta/v1 APIResource, with kube's field order. */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

/** The /api document (APIVersions). */
export function apiVersions(serverAddress: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(group: ServedGroup) {
  const versions = group.versions.map((v) => ({ groupVersion: `${group.name}/${v.version}`, version: v.version }));
  return { name: group.name, versions, preferredVersion: versions[0] };
}

/** The /apis document (APIGroupList) of the non-core groups. */
export function apiGroupList(groups: ServedGroup[]) {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(apiGroup) };
}

/** The /apis/GROUP document (APIGroup). */
export function apiGroupDocument(group: ServedGroup) {
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) };
}

/** The /api/v1 or /apis/GROUP/VERSION document (APIResourceList); kube leaves apiVersion out for the core group. */
export function apiResourceList(group: string, version: ServedVersion) {
  const resources = version.resources.flatMap(apiResources).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { kind: 'APIResourceList', ...(group ? { apiVersion: 'v1' } : {}), groupVersion: apiVersionOf(group, version.version), resources };
}

function apiResources({ type, version }: ServedResource): APIResource[] {
  const { plural, singular, kind, shortNames, categories } = type.names;
  const namespaced = type.scope === 'Namespaced';
  const storage = type.versions.find((v) => v.storage);
  const main: APIResource = {
    name: plural,
    singularName: singular,
    namespaced,
    kind,
    verbs: type.verbs,
    ...(shortNames?.length ? { shortNames } : {}),
    ...(categories?.length ? { categories } : {}),
    ...(storage ? { storageVersionHash: storageVersionHash(type.group, storage.name, kind) } : {}),
  };
  const subresources = servedSubresources(type, version).map((s) => ({
    name: `${plural}/${s.name}`,
    singularName: '',
    namespaced,
    ...(s.kind.group !== type.group || s.kind.version !== version.name ? { group: s.kind.group, version: s.kind.version } : {}),
    kind: s.kind.kind,
    verbs: s.verbs,
  }));
  return [main, ...subresources];
}
