import type { ResourceType, ResourceVersionDef } from '../contracts/resource-type.js';
import { restStorageVerbs, type RestStorage } from '../contracts/rest-storage.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface ServedSubresource {
  /** 'scale', 'status', 'finalize', or the name of a storage's own subresource. */
  name: string;
  /** The kind the subresource reads and writes (autoscaling/v1 Scale for scale). */
  kind: GroupVersionKind;
  verbs: string[];
  /** The storage serving it, for a resource's own subresources (ResourceType.storageSubresources). */
  storage?: RestStorage;
}

/** The kind behind every scale subresource. */
const scaleKind: GroupVersionKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/** The verbs a subresource's storage serves (kube's subresources: get, patch, update, and create for POST ones). */
const subresourceVerbs = new Set(['create', 'get', 'patch', 'update']);

/**
 * The subresources a resource type declares at a version, in kube's order (a Namespace's finalize, status, then
 * scale), then those served by storages of their own, sorted by name.
 */
export function servedSubresources(type: ResourceType, version: ResourceVersionDef): ServedSubresource[] {
  const verbs = ['get', 'patch', 'update'];
  const subresources: ServedSubresource[] = [];
  if (version.subresources?.finalize) {
    subresources.push({ name: 'finalize', kind: { group: type.group, version: version.name, kind: type.names.kind }, verbs: ['update'] });
  }
  if (version.subresources?.status) {
    subresources.push({ name: 'status', kind: { group: type.group, version: version.name, kind: type.names.kind }, verbs });
  }
  if (version.subresources?.scale) subresources.push({ name: 'scale', kind: scaleKind, verbs });
  for (const [name, storage] of Object.entries(type.storageSubresources ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const kind = storage.kind ?? { group: type.group, version: version.name, kind: type.names.kind };
    subresources.push({ name, kind, verbs: restStorageVerbs(storage).filter((v) => subresourceVerbs.has(v)), storage });
  }
  return subresources;
}
