/*
 * Reads protobuf bytes into a plain message object, checking what Go's generated unmarshallers check before anything
 * is built: every varint ends within 10 bytes, every length fits in its enclosing message, tags and wire types are
 * legal, known fields carry the wire type their declaration implies (a string sent as a varint is "wrong wireType"),
 * unknown fields are skipped (groups iteratively) and messages nest no deeper than JSON bodies may. The object has an
 * own property for each field that was on the wire (presence is what Go's pointer fields keep); a message field seen
 * twice is merged, as Go does; 64-bit integers are numbers, or bigints beyond 2^53.
 */
import type protobuf from 'protobufjs';
import { maxBodyDepth } from '../../../core/contracts/body-decoding.js';
import { setOwn, type Msg } from './json-shape.js';
import { infoOf, wireTypeOf, type FieldInfo, type Scalar, type ValueInfo } from './wire-types.js';

/** A structural defect in protobuf bytes; the codec turns it into a 400. */
class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

const maxGroupDepth = 64;
const maxFieldNumber = 2 ** 29 - 1;
const two32 = 2 ** 32;

class Reader {
  pos = 0;
  /** The low and high 32 bits of the last varint. */
  lo = 0;
  hi = 0;
  readonly text: Buffer;

  constructor(readonly buf: Uint8Array) {
    this.text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** Reads a varint of at most 10 bytes into lo/hi. */
  varint(end: number): void {
    let lo = 0;
    let hi = 0;
    const buf = this.buf;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) throw new WireError('unexpected EOF');
      const b = buf[this.pos++];
      if (i < 4) lo |= (b & 0x7f) << (i * 7);
      else if (i === 4) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >> 4;
      } else hi |= (b & 0x7f) << (i * 7 - 32);
      if (b < 0x80) {
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    throw new WireError('proto: integer overflow');
  }

  /** A varint that must be a length or tag: exact up to 2^53. */
  size(end: number): number {
    this.varint(end);
    return this.hi * two32 + this.lo;
  }

  /** [start, end) of a length-delimited value, which must fit before `end`. */
  span(end: number): [number, number] {
    const len = this.size(end);
    if (len > end - this.pos) throw new WireError('unexpected EOF');
    const start = this.pos;
    this.pos += len;
    return [start, this.pos];
  }

  skip(n: number, end: number): void {
    if (n > end - this.pos) throw new WireError('unexpected EOF');
    this.pos += n;
  }
}

/** A 64-bit two's complement value from lo/hi: a number when exact, else a bigint. */
function signed64(lo: number, hi: number): number | bigint {
  const v = (hi | 0) * two32 + lo;
  return Number.isSafeInteger(v) ? v : BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

function unsigned64(lo: number, hi: number): number | bigint {
  const v = hi * two32 + lo;
  return Number.isSafeInteger(v) ? v : (BigInt(hi) << 32n) | BigInt(lo);
}

function varintScalar(r: Reader, scalar: Scalar): unknown {
  const { lo, hi } = r;
  switch (scalar) {
    case 'int32':
      return lo | 0;
    case 'uint32':
      return lo;
    case 'bool':
      return lo !== 0 || hi !== 0;
    case 'int64':
      return signed64(lo, hi);
    case 'uint64':
      return unsigned64(lo, hi);
    case 'sint32':
      return (lo >>> 1) ^ -(lo & 1);
    default: {
      // sint64: zigzag over 64 bits
      const u = (BigInt(hi) << 32n) | BigInt(lo);
      const v = (u >> 1n) ^ -(u & 1n);
      return Number.isSafeInteger(Number(v)) ? Number(v) : v;
    }
  }
}

function readScalar(r: Reader, scalar: Scalar, end: number): unknown {
  const buf = r.text;
  switch (scalar) {
    case 'string': {
      const [s, e] = r.span(end);
      return buf.toString('utf8', s, e);
    }
    case 'bytes': {
      const [s, e] = r.span(end);
      return buf.subarray(s, e);
    }
    case 'double': {
      r.skip(8, end);
      return buf.readDoubleLE(r.pos - 8);
    }
    case 'float': {
      r.skip(4, end);
      return buf.readFloatLE(r.pos - 4);
    }
    case 'fixed32': {
      r.skip(4, end);
      return buf.readUInt32LE(r.pos - 4);
    }
    case 'sfixed32': {
      r.skip(4, end);
      return buf.readInt32LE(r.pos - 4);
    }
    case 'fixed64': {
      r.skip(8, end);
      return unsigned64(buf.readUInt32LE(r.pos - 8), buf.readUInt32LE(r.pos - 4));
    }
    case 'sfixed64': {
      r.skip(8, end);
      return signed64(buf.readUInt32LE(r.pos - 8), buf.readUInt32LE(r.pos - 4));
    }
    default:
      r.varint(end);
      return varintScalar(r, scalar);
  }
}

/** Skips one unknown field's value (groups iteratively, to a bounded depth). */
function skipField(r: Reader, wireType: number, end: number): void {
  let depth = 0;
  let wt = wireType;
  for (;;) {
    switch (wt) {
      case 0:
        r.varint(end);
        break;
      case 1:
        r.skip(8, end);
        break;
      case 2:
        r.span(end);
        break;
      case 3:
        if (++depth > maxGroupDepth) throw new WireError('proto: groups nested too deeply');
        break;
      case 4:
        if (depth === 0) throw new WireError('proto: unexpected end group');
        depth--;
        break;
      case 5:
        r.skip(4, end);
        break;
      default:
        throw new WireError(`proto: illegal wireType ${wt}`);
    }
    if (depth === 0) return;
    wt = r.size(end) % 8;
  }
}

function readValue(r: Reader, value: ValueInfo, end: number, depth: number, into?: Msg): unknown {
  if (value.type) {
    const [s, e] = r.span(end);
    return readMessage(r, value.type, s, e, depth + 1, into);
  }
  return readScalar(r, value.scalar, end);
}

/** Go's text, which names the Go field (the protobuf name capitalised: `Name`, `Labels`). */
function wrongWireType(wt: number, f: FieldInfo): WireError {
  return new WireError(`proto: wrong wireType = ${wt} for field ${f.name[0].toUpperCase()}${f.name.slice(1)}`);
}

function readMapEntry(r: Reader, f: FieldInfo, out: Msg, end: number, depth: number): void {
  const [start, stop] = r.span(end);
  r.pos = start;
  let key: unknown;
  let value: unknown;
  while (r.pos < stop) {
    const tag = r.size(stop);
    const id = Math.floor(tag / 8);
    const wt = tag % 8;
    if (id === 1 || id === 2) {
      const info: ValueInfo = id === 1 ? { scalar: f.mapKey! } : f.value;
      if (wt !== wireTypeOf(info)) throw wrongWireType(wt, f);
      if (id === 1) key = readScalar(r, f.mapKey!, stop);
      else value = readValue(r, f.value, stop, depth, value as Msg | undefined);
    } else {
      if (id < 1) throw new WireError(`proto: illegal tag ${id} (wire type ${wt})`);
      skipField(r, wt, stop);
    }
  }
  const map = (Object.prototype.hasOwnProperty.call(out, f.name) ? out[f.name] : (out[f.name] = {})) as Msg;
  setOwn(map, String(key ?? (f.mapKey === 'string' ? '' : 0)), value ?? (f.value.type ? {} : defaultScalar(f.value.scalar)));
}

function defaultScalar(scalar: Scalar): unknown {
  return scalar === 'string' ? '' : scalar === 'bool' ? false : scalar === 'bytes' ? Buffer.alloc(0) : 0;
}

function readMessage(r: Reader, type: protobuf.Type, start: number, end: number, depth: number, into?: Msg): Msg {
  if (depth > maxBodyDepth) throw new WireError(`nesting exceeds the maximum depth of ${maxBodyDepth}`);
  const { byId } = infoOf(type);
  const out: Msg = into ?? {};
  r.pos = start;
  while (r.pos < end) {
    const tag = r.size(end);
    const id = Math.floor(tag / 8);
    const wt = tag % 8;
    if (id < 1 || id > maxFieldNumber) throw new WireError(`proto: ${type.name}: illegal tag ${id} (wire type ${wt})`);
    const f = byId.get(id);
    if (!f) {
      skipField(r, wt, end);
      continue;
    }
    if (f.mapKey) {
      if (wt !== 2) throw wrongWireType(wt, f);
      readMapEntry(r, f, out, end, depth);
      continue;
    }
    const expected = wireTypeOf(f.value);
    if (f.repeated) {
      const list = (Object.prototype.hasOwnProperty.call(out, f.name) ? out[f.name] : (out[f.name] = [])) as unknown[];
      if (wt === 2 && expected !== 2) {
        // A packed run of numbers.
        const [runStart, runEnd] = r.span(end);
        r.pos = runStart;
        while (r.pos < runEnd) list.push(readScalar(r, f.value.scalar!, runEnd));
        continue;
      }
      if (wt !== expected) throw wrongWireType(wt, f);
      list.push(readValue(r, f.value, end, depth));
      continue;
    }
    if (wt !== expected) throw wrongWireType(wt, f);
    // A message seen again is merged into the first, as Go's unmarshaller does; scalars: the last one wins.
    const previous = f.value.type && Object.prototype.hasOwnProperty.call(out, f.name) ? (out[f.name] as Msg) : undefined;
    out[f.name] = readValue(r, f.value, end, depth, previous);
  }
  if (r.pos !== end) throw new WireError('unexpected EOF');
  return out;
}

/** Reads a whole buffer as a message of `type`. Throws WireError for malformed bytes. */
export function decodeMessage(type: protobuf.Type, buf: Uint8Array): Msg {
  const r = new Reader(buf);
  return readMessage(r, type, 0, buf.length, 0);
}
