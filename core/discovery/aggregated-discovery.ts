import type { RemoteDiscovery } from '../contracts/api-services.js';
import { schemaTyped, type ResourceType } from '../contracts/resource-type.js';
import type { ServedGroup, ServedResource } from './served-groups.js';
import type { GroupVersionKind } from './served-subresources.js';
import { servedSubresources } from './served-subresources.js';

/** The apidiscovery.k8s.io versions kapi serves aggregated discovery in. */
export type AggregatedDiscoveryVersion = 'v2' | 'v2beta1';

/** The Content-Type of an APIGroupDiscoveryList response. */
export function aggregatedContentType(version: AggregatedDiscoveryVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/**
 * One APIGroupDiscovery item: a group with its versions and their resources. Local versions are fresh; a remote one is
 * what `remoteDiscovery` fetched from its backend, or `Stale` without resources until then (as kube lists a backend
 * it could not read).
 */
export function groupDiscovery(group: ServedGroup, remoteDiscovery?: RemoteDiscovery) {
  return {
    metadata: { ...(group.name ? { name: group.name } : {}), creationTimestamp: null },
    versions: group.versions.map((v) =>
      v.remote
        ? (remoteDiscovery?.versionDiscovery(v.remote) ?? { version: v.version, freshness: 'Stale' })
        : {
            version: v.version,
            ...(v.resources.length ? { resources: v.resources.map(resourceDiscovery) } : {}),
            freshness: 'Current',
          },
    ),
  };
}

/** The APIGroupDiscoveryList around the items, in the asked version. */
export function groupDiscoveryList(version: AggregatedDiscoveryVersion, items: ReturnType<typeof groupDiscovery>[]) {
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

function resourceDiscovery({ type, version }: ServedResource) {
  const { plural, singular, kind, shortNames, categories } = type.names;
  const subresources = servedSubresources(type, version).map((s) => ({
    subresource: s.name,
    responseKind: responseKind(type, s.kind),
    verbs: s.verbs,
  }));
  return {
    resource: plural,
    responseKind: responseKind(type, { group: type.group, version: version.name, kind }),
    scope: type.scope,
    singularResource: singular,
    verbs: type.verbs,
    ...(shortNames?.length ? { shortNames } : {}),
    ...(categories?.length ? { categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

/**
 * kube fills the response kind's group and version for custom resources and for kinds of another group-version
 * (Scale); for built-in kinds of the resource's own group-version it leaves them empty.
 */
function responseKind(type: ResourceType, gvk: GroupVersionKind): GroupVersionKind {
  if (schemaTyped(type) || gvk.group !== type.group) return gvk;
  return { group: '', version: '', kind: gvk.kind };
}
