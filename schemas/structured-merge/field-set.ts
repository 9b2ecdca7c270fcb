/**
 * A set of field paths as structured-merge-diff's fieldpath.Set: a trie whose nodes hold `members` (path elements
 * that are in the set) and `children` (path elements under which deeper paths are in the set). A path can be both a
 * member and a parent. Children are never empty.
 *
 * Sets are built with `insert`/`addMember`/`attach` and are immutable once shared: every operation returns a new set,
 * or one of its operands when the result equals it (so unchanged sets keep their identity).
 */
import { comparePathElements, type Path, type PathElement } from './path-element.js';

export class FieldSet {
  members: Set<PathElement> | null = null;
  children: Map<PathElement, FieldSet> | null = null;
  /** The node's fieldsV1 encodings, without and with `.` (a cache owned by fields-v1.ts). */
  encoded: object | undefined = undefined;
  encodedAsMember: object | undefined = undefined;

  static readonly EMPTY: FieldSet = Object.freeze(new FieldSet()) as FieldSet;

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  // ---- building (only on a set not yet shared) ----

  addMember(pe: PathElement): void {
    (this.members ??= new Set()).add(pe);
  }

  /** Attaches a non-empty subtree under `pe` (merging with one already there). */
  attach(pe: PathElement, child: FieldSet): void {
    if (child.isEmpty()) return;
    const children = (this.children ??= new Map());
    const had = children.get(pe);
    children.set(pe, had ? had.union(child) : child);
  }

  /** The child node under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    const children = (this.children ??= new Map());
    let c = children.get(pe);
    if (!c) children.set(pe, (c = new FieldSet()));
    return c;
  }

  insert(path: Path): void {
    if (path.length === 0) return; // nobody owns the whole object
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i]);
    node.addMember(path[path.length - 1]);
  }

  // ---- queries ----

  isEmpty(): boolean {
    if (this.members && this.members.size > 0) return false;
    if (this.children) for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.children?.get(path[i]);
    return node?.members?.has(path[path.length - 1]) ?? false;
  }

  equals(o: FieldSet): boolean {
    if (this === o) return true;
    const ma = this.members?.size ?? 0;
    if (ma !== (o.members?.size ?? 0) || (this.children?.size ?? 0) !== (o.children?.size ?? 0)) return false;
    if (ma) for (const m of this.members!) if (!o.members!.has(m)) return false;
    if (this.children) {
      for (const [pe, c] of this.children) {
        const oc = o.children!.get(pe);
        if (!oc || !c.equals(oc)) return false;
      }
    }
    return true;
  }

  /** Members in SMD order. */
  sortedMembers(): PathElement[] {
    return this.members ? [...this.members].sort(comparePathElements) : [];
  }

  /** Child path elements in SMD order. */
  sortedChildren(): PathElement[] {
    return this.children ? [...this.children.keys()].sort(comparePathElements) : [];
  }

  /** Every member path, as Set.Iterate visits them: this node's members, then each child's, in order. */
  paths(prefix: PathElement[] = [], out: PathElement[][] = []): PathElement[][] {
    for (const m of this.sortedMembers()) out.push([...prefix, m]);
    for (const pe of this.sortedChildren()) this.children!.get(pe)!.paths([...prefix, pe], out);
    return out;
  }

  // ---- algebra ----

  union(o: FieldSet): FieldSet {
    if (this === o || o.isEmpty()) return this;
    if (this.isEmpty()) return o;
    const out = new FieldSet();
    if (this.members || o.members) out.members = new Set([...(this.members ?? []), ...(o.members ?? [])]);
    if (this.children || o.children) {
      out.children = new Map(this.children ?? []);
      if (o.children) for (const [pe, c] of o.children) out.children.set(pe, out.children.get(pe)?.union(c) ?? c);
    }
    return out;
  }

  /** Members of `o` removed; children of `o` removed recursively (a member of `o` does not remove children). */
  difference(o: FieldSet): FieldSet {
    return this.subtract(o, false);
  }

  /** Like difference, but a member of `o` also removes everything under it. */
  recursiveDifference(o: FieldSet): FieldSet {
    return this.subtract(o, true);
  }

  private subtract(o: FieldSet, recursive: boolean): FieldSet {
    if (this === o) return FieldSet.EMPTY;
    let members = this.members;
    if (members && o.members) {
      let kept: Set<PathElement> | undefined;
      for (const m of members) {
        if (!o.members.has(m)) kept?.add(m);
        else if (!kept) {
          kept = new Set();
          for (const k of members) {
            if (k === m) break;
            kept.add(k);
          }
        }
      }
      if (kept) members = kept.size ? kept : null;
    }
    let children = this.children;
    if (children && (o.children || (recursive && o.members))) {
      let kept: Map<PathElement, FieldSet> | undefined;
      for (const [pe, c] of children) {
        const oc = o.children?.get(pe);
        const d = recursive && o.members?.has(pe) ? FieldSet.EMPTY : oc ? c.subtract(oc, recursive) : c;
        if (d !== c && !kept) {
          kept = new Map();
          for (const [k, v] of children) {
            if (k === pe) break;
            kept.set(k, v);
          }
        }
        if (kept && !d.isEmpty()) kept.set(pe, d);
      }
      if (kept) children = kept.size ? kept : null;
    }
    if (members === this.members && children === this.children) return this;
    const out = new FieldSet();
    out.members = members;
    out.children = children;
    return out;
  }

  /** Whether `this.difference(o)` is empty (without building it). */
  isSubsetOf(o: FieldSet): boolean {
    if (this === o) return true;
    if (this.members) for (const m of this.members) if (!o.members?.has(m)) return false;
    if (this.children) {
      for (const [pe, c] of this.children) {
        const oc = o.children?.get(pe);
        if (!oc || !c.isSubsetOf(oc)) return false;
      }
    }
    return true;
  }

  intersection(o: FieldSet): FieldSet {
    if (this === o) return this;
    const out = new FieldSet();
    if (this.members && o.members) {
      const [small, big] = this.members.size <= o.members.size ? [this.members, o.members] : [o.members, this.members];
      for (const m of small) if (big.has(m)) out.addMember(m);
    }
    if (this.children && o.children) {
      for (const [pe, c] of this.children) {
        const oc = o.children.get(pe);
        if (oc) out.attach(pe, c.intersection(oc));
      }
    }
    return out;
  }
}
