/**
 * The FieldsV1 encoding of a field set (metadata.managedFields[].fieldsV1), as structured-merge-diff writes and reads
 * it: a JSON object per node whose keys are path elements in SMD order, `{}` for a member without children, and
 * `".": {}` first in a node that is both a member and has children.
 */
import { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { canonicalPathElement, comparePathElements, type PathElement } from '../../schemas/structured-merge/path-element.js';
import { isObject } from '../../schemas/structured-merge/json-value.js';

export type FieldsV1 = Record<string, unknown>;

export class FieldsV1Error extends Error {}

/** Encodes a set; `{}` for the empty set. The result is shared: treat it as immutable. */
export function encodeFieldsV1(set: FieldSet): FieldsV1 {
  return encodeNode(set, false);
}

/**
 * Encodings are cached on the nodes (without and with `.`). Sets share unchanged nodes (field-set.ts), so a set
 * that differs from a decoded or earlier one in one place is encoded again only along that path.
 */
function encodeNode(set: FieldSet, self: boolean): FieldsV1 {
  const cached = (self ? set.encodedAsMember : set.encoded) as FieldsV1 | undefined;
  if (cached) return cached;
  const out: FieldsV1 = {};
  const members = set.members;
  const children = set.children;
  if (self && ((members && members.size) || (children && children.size))) out['.'] = {};
  const keys: PathElement[] = members ? [...members] : [];
  if (children) for (const pe of children.keys()) if (!members?.has(pe)) keys.push(pe);
  keys.sort(comparePathElements);
  for (const pe of keys) {
    const child = children?.get(pe);
    out[pe] = child ? encodeNode(child, members?.has(pe) ?? false) : {};
  }
  remember(set, self, out);
  return out;
}

function remember(set: FieldSet, self: boolean, fields: FieldsV1): void {
  if (set === FieldSet.EMPTY) return;
  if (self) set.encodedAsMember = fields;
  else set.encoded = fields;
}

/**
 * Decodes fieldsV1 (null or absent: the empty set); throws FieldsV1Error where SMD's Set.FromJSON fails.
 * `stored`: the fieldsV1 of a stored object, which this engine wrote canonically; its objects are kept as the
 * encodings of the decoded nodes, so an unchanged set is written back as it was.
 */
export function decodeFieldsV1(fields: unknown, stored = false): FieldSet {
  if (fields === undefined || fields === null) return FieldSet.EMPTY;
  if (!isObject(fields)) throw new FieldsV1Error(`ReadMapCB: expect { or n, but found ${JSON.stringify(fields)?.[0]}`);
  const set = readNode(fields, stored).set;
  if (!set) return FieldSet.EMPTY;
  if (stored) remember(set, false, fields);
  return set;
}

/** One node: its subtree (null when it has none) and whether the node itself is a member. */
function readNode(o: Record<string, unknown>, stored: boolean): { set: FieldSet | null; member: boolean } {
  let set: FieldSet | null = null;
  let member = false;
  for (const key in o) {
    if (key === '.') {
      member = true;
      continue;
    }
    let pe: PathElement | undefined;
    try {
      pe = canonicalPathElement(key);
    } catch (e) {
      throw new FieldsV1Error(`parsing key as path element: ${(e as Error).message}`);
    }
    if (pe === undefined) continue; // an element type this version does not know: dropped, as SMD does
    const v = o[key];
    let child: { set: FieldSet | null; member: boolean };
    if (v === null) child = { set: null, member: true };
    else if (isObject(v)) child = readNode(v, stored);
    else throw new FieldsV1Error(`ReadMapCB: expect { or n, but found ${JSON.stringify(v)[0]}`);
    set ??= new FieldSet();
    if (child.member) set.addMember(pe);
    if (child.set) {
      set.attach(pe, child.set);
      if (stored && pe === key) remember(child.set, child.member, v as FieldsV1);
    }
  }
  if (!set) member = true;
  return { set: set && !set.isEmpty() ? set : null, member };
}
