/*
 * A list's raw message, with each item's bytes kept per object (core/codec/encoded-items.ts).
 */
import { EncodedItems } from '../../../lib/codec/encoded-items.js';
import type { ProtobufKind } from './kinds.js';
import type { JsonObject } from './json-shape.js';
import { encodeMessage } from './wire-writer.js';

/** Encoded item messages per item kind (a CRD change replaces its ProtobufKind, and with it these bytes). */
const itemBytes = new WeakMap<ProtobufKind, EncodedItems>();

/**
 * The raw message of `list` (a `<Kind>List` with `items`), or undefined when its items are not all objects of
 * `itemKind`, the kind its `items` field holds: then the caller encodes the list as a whole.
 */
export function encodeListMessage(listKind: ProtobufKind, itemKind: ProtobufKind, list: JsonObject): Buffer | undefined {
  const items = list['items'];
  const field = listKind.type.fields['items'];
  if (!Array.isArray(items) || !field?.repeated || field.resolvedType !== itemKind.type) return undefined;
  let cache = itemBytes.get(itemKind);
  if (!cache) itemBytes.set(itemKind, (cache = new EncodedItems()));
  const encodeItem = (item: object) => encodeMessage(itemKind.type, itemKind.fromJSON(item as JsonObject));
  const encoded: Buffer[] = [];
  let size = 0;
  for (const item of items as unknown[]) {
    if (item === null || typeof item !== 'object') return undefined;
    const bytes = cache.bytes(item, encodeItem);
    encoded.push(bytes);
    size += bytes.length;
  }
  const { items: _, ...rest } = list;
  const head = encodeMessage(listKind.type, listKind.fromJSON(rest));
  // Each item: its key (field number, wire type 2), its length as a varint, its bytes.
  const key = field.id * 8 + 2;
  const out = Buffer.allocUnsafe(head.length + size + encoded.length * (varintSize(key) + 5));
  let pos = head.copy(out, 0);
  for (const bytes of encoded) {
    pos = writeVarint(out, pos, key);
    pos = writeVarint(out, pos, bytes.length);
    pos += bytes.copy(out, pos);
  }
  return out.subarray(0, pos);
}

function varintSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

function writeVarint(buf: Buffer, pos: number, v: number): number {
  while (v >= 0x80) {
    buf[pos++] = (v % 128) | 0x80;
    v = Math.floor(v / 128);
  }
  buf[pos++] = v;
  return pos;
}
