/**
 * Owners the collector saw deleted, by uid (uids are never reused), with their namespace ('' when cluster-scoped):
 * kube's absentOwnerCache, a bounded LRU. A dependent of one is collected without asking storage — even when the
 * owner's kind is no longer served (a CRD deleted after its objects).
 */
export class AbsentOwners {
  private readonly namespaces = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  add(uid: string, namespace: string): void {
    this.namespaces.delete(uid);
    this.namespaces.set(uid, namespace);
    if (this.namespaces.size > this.capacity) this.namespaces.delete(this.namespaces.keys().next().value!);
  }

  /**
   * Whether `uid` is known gone for a dependent in `namespace`: a cluster-scoped owner for anyone, a namespaced one
   * for its own namespace's dependents (a cluster-scoped dependent's reference to it is invalid, not dangling).
   */
  has(uid: string, namespace: string): boolean {
    const ownerNamespace = this.namespaces.get(uid);
    if (ownerNamespace === undefined) return false;
    this.add(uid, ownerNamespace); // recently used
    return ownerNamespace === '' || ownerNamespace === namespace;
  }
}
