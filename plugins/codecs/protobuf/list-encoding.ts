/*
 * A list's raw message, with each item's bytes kept per object (core/codec/encoded-items.ts).
 */
import { EncodedItems } from '../../../lib/codec/encoded-items.js';
import type { ProtobufKind } from './kinds.js';
import type { JsonObject } from './json-shape.js';
import { encodeMessage, varintSize, writeVarint } from './wire-writer.js';

/** Encoded item messages per item kind (a CRD change replaces its ProtobufKind, and with it these bytes). */
const itemBytes = new WeakMap<ProtobufKind, EncodedItems>();

/**
 * The raw message of a `<Kind>List`, made in two stages so that a large one can be written without holding the event
 * loop: `encodeItems` encodes one item per step; then `length` is known, which the envelope writes first, and
 * `pieces` are the message's bytes: the list's other fields, then each item's key, length and bytes.
 */
export class ListMessage {
  private readonly encoded: Buffer[] = [];
  private size: number;

  private constructor(
    private readonly itemKind: ProtobufKind,
    private readonly items: readonly object[],
    /** The key of the `items` field: its field number, wire type 2 (length-delimited). */
    private readonly key: number,
    private readonly head: Buffer,
  ) {
    this.size = head.length;
  }

  /**
   * The message of `list` (a `<Kind>List` with `items`), or undefined when its items are not all objects of
   * `itemKind`, the kind its `items` field holds: then the caller encodes the list as a whole.
   */
  static of(listKind: ProtobufKind, itemKind: ProtobufKind, list: JsonObject): ListMessage | undefined {
    const items = list['items'];
    const field = listKind.type.fields['items'];
    if (!Array.isArray(items) || !field?.repeated || field.resolvedType !== itemKind.type) return undefined;
    if (!items.every((item) => item !== null && typeof item === 'object')) return undefined;
    const { items: _, ...rest } = list;
    return new ListMessage(itemKind, items as object[], field.id * 8 + 2, encodeMessage(listKind.type, listKind.fromJSON(rest)));
  }

  /** Encodes the items, one per step. */
  *encodeItems(): Generator<void> {
    let cache = itemBytes.get(this.itemKind);
    if (!cache) itemBytes.set(this.itemKind, (cache = new EncodedItems()));
    const kind = this.itemKind;
    const encodeItem = (item: object) => encodeMessage(kind.type, kind.fromJSON(item as JsonObject));
    for (let i = this.encoded.length; i < this.items.length; i++) {
      const bytes = cache.bytes(this.items[i]!, encodeItem);
      this.encoded.push(bytes);
      this.size += varintSize(this.key) + varintSize(bytes.length) + bytes.length;
      yield;
    }
  }

  /** The message's length in bytes, once every item is encoded. */
  get length(): number {
    return this.size;
  }

  /** The message's bytes, once every item is encoded. */
  *pieces(): Iterable<Buffer> {
    yield this.head;
    for (const bytes of this.encoded) {
      const prefix = Buffer.allocUnsafe(varintSize(this.key) + varintSize(bytes.length));
      writeVarint(prefix, writeVarint(prefix, 0, this.key), bytes.length);
      yield prefix;
      yield bytes;
    }
  }

  /** The whole message in one buffer. */
  encode(): Buffer {
    for (const _ of this.encodeItems());
    return Buffer.concat([...this.pieces()], this.size);
  }
}
