import type { KubeObject } from '../../core/contracts/resource-type.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../lib/k8s/finalizers.js';

/** An owner reference as the collector keeps it (metav1.OwnerReference without `controller`). */
export interface OwnerLink {
  uid: string;
  apiVersion: string;
  kind: string;
  name: string;
  blockOwnerDeletion: boolean;
}

type OwnerReference = Omit<OwnerLink, 'blockOwnerDeletion'> & { blockOwnerDeletion?: boolean };

/** What the collector knows of one object: where it is, its owners, and how far its deletion is. */
export interface GraphNode {
  uid: string;
  /** `group/plural` of its resource. */
  resource: string;
  namespace: string;
  name: string;
  owners: readonly OwnerLink[];
  /** Has a deletionTimestamp. */
  deleting: boolean;
  /** Being deleted in the foreground: waits for its blocking dependents (kube's deletingDependents). */
  deletingDependents: boolean;
  /** Being deleted with its dependents orphaned. */
  orphaning: boolean;
}

/** The owners of the many objects that have none: one shared array rather than an empty one per node. */
const noOwners: readonly OwnerLink[] = Object.freeze([]);

/** The node for an object of `resource` (without its metadata only nodes of objects with a uid are kept). */
export function nodeOf(resource: string, obj: KubeObject): GraphNode | undefined {
  const meta = obj.metadata;
  if (!meta?.uid || !meta.name) return undefined;
  const deleting = Boolean(meta.deletionTimestamp);
  const finalizers = meta.finalizers ?? [];
  return {
    uid: meta.uid,
    resource,
    namespace: meta.namespace ?? '',
    name: meta.name,
    // Stored objects passed metadata validation: every reference has these fields.
    owners: !meta.ownerReferences?.length ? noOwners : (meta.ownerReferences as OwnerReference[]).map((ref) => ({
      uid: ref.uid,
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      name: ref.name,
      blockOwnerDeletion: ref.blockOwnerDeletion === true,
    })),
    deleting,
    deletingDependents: deleting && finalizers.includes(FINALIZER_DELETE_DEPENDENTS),
    orphaning: deleting && finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS),
  };
}

/**
 * The objects of every followed resource by uid, and who points at whom (kube's GC graph, holding identities and owner
 * references only — the objects themselves stay in the informers). Dependents are indexed by their owners' uids
 * whether or not an object with that uid has been seen.
 */
export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependentsByOwner = new Map<string, Set<string>>();
  /**
   * The uid of the object at each resource, namespace and name: a new object under a name replaces the old one. Maps
   * in maps rather than one map by `resource/namespace/name`, which would hold a key string per object.
   */
  private readonly uidByName = new Map<string, Map<string, Map<string, string>>>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** The nodes pointing at `ownerUid`. */
  dependents(ownerUid: string): GraphNode[] {
    return [...(this.dependentsByOwner.get(ownerUid) ?? [])].flatMap((uid) => this.nodes.get(uid) ?? []);
  }

  hasDependents(ownerUid: string): boolean {
    return (this.dependentsByOwner.get(ownerUid)?.size ?? 0) > 0;
  }

  /**
   * Puts `node` in place of what was known of its uid (`old`); an object of another uid seen under the same name
   * before is gone (`displaced`, removed).
   */
  set(node: GraphNode): { old?: GraphNode; displaced?: GraphNode } {
    const before = this.uidAt(node);
    const displaced = before !== undefined && before !== node.uid ? this.delete(before) : undefined;
    const old = this.nodes.get(node.uid);
    if (old) this.unlink(old);
    this.nodes.set(node.uid, node);
    this.setUidAt(node);
    for (const owner of node.owners) {
      let set = this.dependentsByOwner.get(owner.uid);
      if (!set) this.dependentsByOwner.set(owner.uid, (set = new Set()));
      set.add(node.uid);
    }
    return { old, displaced };
  }

  delete(uid: string): GraphNode | undefined {
    const old = this.nodes.get(uid);
    if (!old) return undefined;
    this.unlink(old);
    this.nodes.delete(uid);
    if (this.uidAt(old) === uid) this.deleteUidAt(old);
    return old;
  }

  /** The nodes of a resource (to forget them when it is no longer served). */
  ofResource(resource: string): GraphNode[] {
    return [...this.nodes.values()].filter((n) => n.resource === resource);
  }

  private uidAt(node: GraphNode): string | undefined {
    return this.uidByName.get(node.resource)?.get(node.namespace)?.get(node.name);
  }

  private setUidAt(node: GraphNode): void {
    let namespaces = this.uidByName.get(node.resource);
    if (!namespaces) this.uidByName.set(node.resource, (namespaces = new Map()));
    let names = namespaces.get(node.namespace);
    if (!names) namespaces.set(node.namespace, (names = new Map()));
    names.set(node.name, node.uid);
  }

  private deleteUidAt(node: GraphNode): void {
    const namespaces = this.uidByName.get(node.resource);
    const names = namespaces?.get(node.namespace);
    if (!names?.delete(node.name) || names.size > 0) return;
    namespaces!.delete(node.namespace);
    if (namespaces!.size === 0) this.uidByName.delete(node.resource);
  }

  private unlink(node: GraphNode): void {
    for (const owner of node.owners) {
      const set = this.dependentsByOwner.get(owner.uid);
      set?.delete(node.uid);
      if (set?.size === 0) this.dependentsByOwner.delete(owner.uid);
    }
  }
}
