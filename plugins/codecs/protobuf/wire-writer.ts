/*
 * Writes a plain message object as protobuf bytes, backwards through one growing buffer so that every length prefix
 * is known when it is written: fields by field number, a field when its property is set and not null, map entries in
 * the object's key order, negative int32s sign-extended to ten bytes as Go writes them.
 */
import type protobuf from 'protobufjs';
import { ConvertError, type Msg } from './json-shape.js';
import { infoOf, wireTypeOf, type Scalar, type ValueInfo } from './wire-types.js';

/** A buffer filled from its end towards its start. */
class BackwardsWriter {
  private buf: Buffer;
  private pos: number;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
    this.pos = size;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.buf.length - this.pos;
  }

  private room(n: number): void {
    if (this.pos >= n) return;
    const used = this.length;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, used + n + 64));
    this.buf.copy(bigger, bigger.length - used, this.pos);
    this.buf = bigger;
    this.pos = bigger.length - used;
  }

  /** An unsigned varint of a value below 2^53. */
  uvarint(v: number): void {
    if (v < 0x80) {
      this.room(1);
      this.buf[--this.pos] = v;
      return;
    }
    let n = 1;
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) n++;
    this.room(n);
    let p = (this.pos -= n);
    while (v >= 0x80) {
      this.buf[p++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[p] = v;
  }

  /** A varint of a 64-bit two's complement value. */
  varint64(v: bigint): void {
    let u = BigInt.asUintN(64, v);
    const bytes: number[] = [];
    do {
      let b = Number(u & 0x7fn);
      u >>= 7n;
      if (u) b |= 0x80;
      bytes.push(b);
    } while (u);
    this.room(bytes.length);
    this.pos -= bytes.length;
    this.buf.set(bytes, this.pos);
  }

  tag(id: number, wireType: number): void {
    this.uvarint(id * 8 + wireType);
  }

  string(s: string): void {
    const len = Buffer.byteLength(s, 'utf8');
    this.room(len);
    this.pos -= len;
    this.buf.write(s, this.pos, len, 'utf8');
    this.uvarint(len);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.pos -= b.length;
    this.buf.set(b, this.pos);
    this.uvarint(b.length);
  }

  fixed(n: 4 | 8, write: (buf: Buffer, at: number) => void): void {
    this.room(n);
    this.pos -= n;
    write(this.buf, this.pos);
  }

  finish(): Buffer {
    return this.buf.subarray(this.pos);
  }
}

/** A 64-bit integer given as a number, bigint, decimal string or Long. */
function toBigInt(v: unknown, name: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  if (v && typeof v === 'object' && typeof (v as { low?: unknown }).low === 'number') return BigInt((v as { toString(): string }).toString());
  throw new ConvertError(`${name}: not an integer: ${String(v)}`);
}

function writeScalar(w: BackwardsWriter, scalar: Scalar, v: unknown, name: string): void {
  switch (scalar) {
    case 'string':
      if (typeof v !== 'string') throw new ConvertError(`${name}: not a string`);
      return w.string(v);
    case 'bytes':
      if (typeof v === 'string') return w.bytes(Buffer.from(v, 'base64'));
      if (!(v instanceof Uint8Array)) throw new ConvertError(`${name}: not bytes`);
      return w.bytes(v);
    case 'bool':
      return w.uvarint(v ? 1 : 0);
    case 'double':
      return w.fixed(8, (b, at) => b.writeDoubleLE(Number(v), at));
    case 'float':
      return w.fixed(4, (b, at) => b.writeFloatLE(Number(v), at));
    case 'fixed32':
      return w.fixed(4, (b, at) => b.writeUInt32LE(Number(v) >>> 0, at));
    case 'sfixed32':
      return w.fixed(4, (b, at) => b.writeInt32LE(Number(v) | 0, at));
    case 'fixed64':
    case 'sfixed64': {
      const u = BigInt.asUintN(64, toBigInt(v, name));
      return w.fixed(8, (b, at) => b.writeBigUInt64LE(u, at));
    }
    case 'uint32':
      return w.uvarint(Number(v) >>> 0);
    case 'int32': {
      const n = Number(v) | 0;
      // Negative int32 values are sign-extended to ten bytes, as Go writes them.
      return n >= 0 ? w.uvarint(n) : w.varint64(BigInt(n));
    }
    case 'sint32': {
      const n = Number(v) | 0;
      return w.uvarint(((n << 1) ^ (n >> 31)) >>> 0);
    }
    case 'sint64': {
      const n = toBigInt(v, name);
      return w.varint64(BigInt.asUintN(64, (n << 1n) ^ (n >> 63n)));
    }
    default: {
      // int64, uint64
      if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return w.uvarint(v);
      return w.varint64(toBigInt(v, name));
    }
  }
}

function writeValue(w: BackwardsWriter, value: ValueInfo, id: number, v: unknown, name: string): void {
  if (value.type) {
    const mark = w.length;
    writeFields(w, value.type, v as Msg);
    w.uvarint(w.length - mark);
    return w.tag(id, 2);
  }
  writeScalar(w, value.scalar, v, name);
  w.tag(id, wireTypeOf(value));
}

function writeFields(w: BackwardsWriter, type: protobuf.Type, m: Msg): void {
  for (const f of infoOf(type).descending) {
    if (!Object.prototype.hasOwnProperty.call(m, f.name)) continue;
    const v = m[f.name];
    if (v === null || v === undefined) continue;
    if (f.mapKey) {
      const keys = Object.keys(v as object);
      for (let i = keys.length - 1; i >= 0; i--) {
        const mark = w.length;
        writeValue(w, f.value, 2, (v as Msg)[keys[i]], f.name);
        writeScalar(w, f.mapKey, f.mapKey === 'string' ? keys[i] : Number(keys[i]), f.name);
        w.tag(1, wireTypeOf({ scalar: f.mapKey }));
        w.uvarint(w.length - mark);
        w.tag(f.id, 2);
      }
    } else if (f.repeated) {
      const items = v as unknown[];
      if (f.packed && items.length) {
        const mark = w.length;
        for (let i = items.length - 1; i >= 0; i--) writeScalar(w, f.value.scalar!, items[i], f.name);
        w.uvarint(w.length - mark);
        w.tag(f.id, 2);
      } else {
        for (let i = items.length - 1; i >= 0; i--) writeValue(w, f.value, f.id, items[i], f.name);
      }
    } else {
      writeValue(w, f.value, f.id, v, f.name);
    }
  }
}

/** Writes a message of `type` from a plain object (fields set and not null are written). */
export function encodeMessage(type: protobuf.Type, m: Msg, sizeHint = 256): Buffer {
  const w = new BackwardsWriter(sizeHint);
  writeFields(w, type, m);
  return w.finish();
}

/** The size of an unsigned varint of a value below 2^53. */
export function varintSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** Writes an unsigned varint of a value below 2^53 at `pos`; returns the position after it. */
export function writeVarint(buf: Buffer, pos: number, v: number): number {
  while (v >= 0x80) {
    buf[pos++] = (v % 128) | 0x80;
    v = Math.floor(v / 128);
  }
  buf[pos++] = v;
  return pos;
}
