import type { Crd } from './crd-types.js';

/** The names of a group held by CRDs other than the one being judged. */
export interface TakenNames {
  /** A plural, singular or short name another CRD of the group was accepted under. */
  resource(name: string): boolean;
  /** A kind or list kind another CRD of the group was accepted under. */
  kind(name: string): boolean;
}

/** name → the CRDs (by metadata.name) holding it. */
type Holders = Map<string, Set<string>>;

/**
 * The names every known CRD was accepted under (status.acceptedNames), by group: a CRD's requested names are judged
 * by a look-up per name, not by a walk over every other CRD (which made establishing N CRDs quadratic).
 */
export class AcceptedNamesIndex {
  private readonly resources = new Map<string, Holders>();
  private readonly kinds = new Map<string, Holders>();
  /** What each CRD is indexed under, to take it out again. */
  private readonly indexed = new Map<string, { group: string; resources: string[]; kinds: string[] }>();

  /** Indexes the CRD's accepted names as it is now (replacing those it was indexed under before). */
  set(crd: Crd): void {
    const name = crd.metadata!.name!;
    this.delete(name);
    const acc = crd.status?.acceptedNames;
    if (!acc) return;
    const entry = {
      group: crd.spec.group,
      resources: [acc.plural, acc.singular, ...(acc.shortNames ?? [])].filter((n): n is string => Boolean(n)),
      kinds: [acc.kind, acc.listKind].filter((n): n is string => Boolean(n)),
    };
    this.indexed.set(name, entry);
    for (const n of entry.resources) holdersOf(this.resources, entry.group, n).add(name);
    for (const n of entry.kinds) holdersOf(this.kinds, entry.group, n).add(name);
  }

  delete(name: string): void {
    const entry = this.indexed.get(name);
    if (!entry) return;
    this.indexed.delete(name);
    for (const n of entry.resources) release(this.resources, entry.group, n, name);
    for (const n of entry.kinds) release(this.kinds, entry.group, n, name);
  }

  /** The names of `group` that CRDs other than `crdName` hold. */
  takenByOthers(group: string, crdName: string): TakenNames {
    const heldByOther = (index: Map<string, Holders>, n: string) => {
      const holders = index.get(group)?.get(n);
      return holders !== undefined && (holders.size > 1 || !holders.has(crdName));
    };
    return { resource: (n) => heldByOther(this.resources, n), kind: (n) => heldByOther(this.kinds, n) };
  }
}

function holdersOf(index: Map<string, Holders>, group: string, name: string): Set<string> {
  let byName = index.get(group);
  if (!byName) index.set(group, (byName = new Map()));
  let holders = byName.get(name);
  if (!holders) byName.set(name, (holders = new Set()));
  return holders;
}

function release(index: Map<string, Holders>, group: string, name: string, crdName: string): void {
  const byName = index.get(group);
  const holders = byName?.get(name);
  if (!byName || !holders) return;
  holders.delete(crdName);
  if (holders.size) return;
  byName.delete(name);
  if (!byName.size) index.delete(group);
}
