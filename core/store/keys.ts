import type { ResourceType } from '../contracts/resource-type.js';

/**
 * Storage key layout, as kube-apiserver lays out etcd:
 *   /registry/{group}/{resource}/{namespace}/{name}   (namespaced; core group omits the group segment)
 *   /registry/{group}/{resource}/{name}               (cluster-scoped)
 */
export function resourcePrefix(rt: ResourceType): string {
  // A resource stored as another (ResourceType.storedAs) lives under that one's keys.
  const { group, plural } = rt.storedAs ?? { group: rt.group, plural: rt.names.plural };
  return group ? `/registry/${group}/${plural}/` : `/registry/${plural}/`;
}

/** The prefix of a collection: all namespaces when `namespace` is empty. */
export function collectionPrefix(rt: ResourceType, namespace: string): string {
  const base = resourcePrefix(rt);
  return rt.scope === 'Namespaced' && namespace ? `${base}${namespace}/` : base;
}

export function objectKey(rt: ResourceType, namespace: string, name: string): string {
  return rt.scope === 'Namespaced' ? `${resourcePrefix(rt)}${namespace}/${name}` : `${resourcePrefix(rt)}${name}`;
}
