import type { ResourceType, ResourceVersionDef } from '../contracts/resource-type.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface ServedSubresource {
  name: 'scale' | 'status' | 'finalize';
  /** The kind the subresource reads and writes (autoscaling/v1 Scale for scale). */
  kind: GroupVersionKind;
  verbs: string[];
}

/** The kind behind every scale subresource. */
const scaleKind: GroupVersionKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/** The subresources a resource type declares at a version, in kube's order (a Namespace's finalize, status, then scale). */
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
  return subresources;
}
