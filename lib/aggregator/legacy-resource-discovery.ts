/** An APIResourceList entry (`/apis/<group>/<version>`), as far as aggregated discovery needs it. */
export interface LegacyAPIResource {
  name: string;
  singularName?: string;
  namespaced?: boolean;
  group?: string;
  version?: string;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

interface ResourceDiscovery {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: 'Namespaced' | 'Cluster';
  singularResource?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind: { group: string; version: string; kind: string }; verbs?: string[] }[];
}

/**
 * The APIResourceDiscovery entries (apidiscovery.k8s.io/v2) of a legacy APIResourceList, as kube's
 * ConvertGroupVersionIntoToDiscovery makes them for a backend without aggregated discovery: resources first, then
 * each `resource/subresource` under its parent (a parent made up, with an empty response kind, when the list lacks
 * it). A subresource whose scope differs from its parent's is an error, as in kube.
 */
export function legacyResourceDiscovery(list: readonly LegacyAPIResource[]): ResourceDiscovery[] {
  const resources: ResourceDiscovery[] = [];
  const parents = new Map<string, ResourceDiscovery>();
  const scopeOf = (r: LegacyAPIResource) => (r.namespaced ? 'Namespaced' : 'Cluster');
  const kindOf = (r: LegacyAPIResource) => ({ group: r.group ?? '', version: r.version ?? '', kind: r.kind ?? '' });
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const resource: ResourceDiscovery = {
      resource: r.name,
      responseKind: kindOf(r),
      scope: scopeOf(r),
      singularResource: r.singularName ?? '',
      verbs: r.verbs ?? [],
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
    };
    resources.push(resource);
    parents.set(r.name, resource);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parentName = r.name.slice(0, slash);
    let parent = parents.get(parentName);
    if (!parent) {
      parent = { resource: parentName, responseKind: { group: '', version: '', kind: '' }, scope: scopeOf(r) };
      resources.push(parent);
      parents.set(parentName, parent);
    }
    if (parent.scope !== scopeOf(r)) {
      throw new Error(`Error: Parent ${parentName} (scope: ${parent.scope}) and subresource ${r.name.slice(slash + 1)} (scope: ${scopeOf(r)}) scope do not match`);
    }
    (parent.subresources ??= []).push({ subresource: r.name.slice(slash + 1), responseKind: r.kind ? kindOf(r) : { group: '', version: '', kind: '' }, verbs: r.verbs ?? [] });
  }
  return resources;
}
