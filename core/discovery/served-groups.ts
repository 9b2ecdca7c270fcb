import type { RemoteAPIService } from '../contracts/api-services.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { ResourceType, ResourceVersionDef } from '../contracts/resource-type.js';
import { goCompare } from '../../lib/go/strings.js';
import { customResourcePriority, localAPIServicePriority, type APIServicePriority } from '../../lib/k8s/apiservice-priorities.js';
import { compareVersionPriority } from './version-priority.js';

/** A resource type as served at one version. */
export interface ServedResource {
  type: ResourceType;
  version: ResourceVersionDef;
}

export interface ServedVersion {
  version: string;
  /** Sorted by plural name; empty for a remote version (its backend lists them). */
  resources: ServedResource[];
  /** Set when the version is served by another server through a service-backed APIService. */
  remote?: RemoteAPIService;
}

export interface ServedGroup {
  /** '' for the core group. */
  name: string;
  /** Highest priority first: the first one is the preferred version. */
  versions: ServedVersion[];
}

/** A group-version with the priorities of the APIService that lists it. */
interface Entry extends ServedVersion, APIServicePriority {
  group: string;
  /** The APIService's name, `version.group`. */
  name: string;
}

/**
 * What the registry serves and what service-backed APIServices add, grouped and ordered as kube's aggregator lists
 * them (its SortedByGroupAndVersion): groups by their highest groupPriorityMinimum, ties by APIService name (the core
 * group's `v1.` first); versions by versionPriority, ties by Kubernetes version order. A remote APIService takes the
 * place of a group-version served here. Local group-versions have the priorities of their local APIServices.
 */
export function servedGroups(registry: ResourceRegistry, remotes: readonly RemoteAPIService[] = []): ServedGroup[] {
  const entries = new Map<string, Entry>();
  for (const type of registry.all()) {
    for (const version of type.versions) {
      if (!version.served) continue;
      const name = `${version.name}.${type.group}`;
      const entry = entries.get(name);
      if (entry) {
        entry.resources.push({ type, version });
        // a built-in kind's group-version has its built-in priorities, whatever CRD shares it
        if (!type.definedBy) Object.assign(entry, localAPIServicePriority(type.group, version.name));
        continue;
      }
      const priority = type.definedBy ? customResourcePriority : localAPIServicePriority(type.group, version.name);
      entries.set(name, { name, group: type.group, version: version.name, resources: [{ type, version }], ...priority });
    }
  }
  for (const remote of remotes) {
    const { name, group, version, groupPriorityMinimum, versionPriority } = remote;
    entries.set(name, { name, group, version, resources: [], remote, groupPriorityMinimum, versionPriority });
  }

  const groups = new Map<string, Entry[]>();
  for (const entry of [...entries.values()].sort(byGroupPriority)) {
    const versions = groups.get(entry.group) ?? [];
    groups.set(entry.group, versions);
    versions.push(entry);
  }
  return [...groups.entries()].map(([name, versions]) => ({
    name,
    versions: versions.sort(byVersionPriority).map(({ version, resources, remote }) => ({
      version,
      resources: resources.sort(byPlural),
      ...(remote ? { remote } : {}),
    })),
  }));
}

function byGroupPriority(a: Entry, b: Entry): number {
  return b.groupPriorityMinimum - a.groupPriorityMinimum || goCompare(a.name, b.name);
}

function byVersionPriority(a: Entry, b: Entry): number {
  return b.versionPriority - a.versionPriority || compareVersionPriority(a.version, b.version);
}

function byPlural(a: ServedResource, b: ServedResource): number {
  const pa = a.type.names.plural;
  const pb = b.type.names.plural;
  return pa < pb ? -1 : pa > pb ? 1 : 0;
}
