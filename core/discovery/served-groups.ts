import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { ResourceType, ResourceVersionDef } from '../contracts/resource-type.js';
import { compareGroupPriority } from './group-priority.js';
import { compareVersionPriority } from './version-priority.js';

/** A resource type as served at one version. */
export interface ServedResource {
  type: ResourceType;
  version: ResourceVersionDef;
}

export interface ServedVersion {
  version: string;
  /** Sorted by plural name. */
  resources: ServedResource[];
}

export interface ServedGroup {
  /** '' for the core group. */
  name: string;
  /** Highest priority first: the first one is the preferred version. */
  versions: ServedVersion[];
}

/** What the registry serves, grouped and ordered as kube-apiserver's discovery lists it (core group first). */
export function servedGroups(registry: ResourceRegistry): ServedGroup[] {
  const groups = new Map<string, Map<string, ServedResource[]>>();
  for (const type of registry.all()) {
    for (const version of type.versions) {
      if (!version.served) continue;
      const versions = groups.get(type.group) ?? new Map<string, ServedResource[]>();
      groups.set(type.group, versions);
      versions.set(version.name, [...(versions.get(version.name) ?? []), { type, version }]);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareGroupPriority(a, b))
    .map(([name, versions]) => ({
      name,
      versions: [...versions.entries()]
        .sort(([a], [b]) => compareVersionPriority(a, b))
        .map(([version, resources]) => ({ version, resources: resources.sort(byPlural) })),
    }));
}

function byPlural(a: ServedResource, b: ServedResource): number {
  const pa = a.type.names.plural;
  const pb = b.type.names.plural;
  return pa < pb ? -1 : pa > pb ? 1 : 0;
}
