import { errors } from '../../../core/contracts/api-error.js';
import { EncodedItems } from '../../../lib/codec/encoded-items.js';
import { elementByteFields, memberByteFields, type ByteFields } from './byte-fields.js';

/** The self-described CBOR tag (55799) head kube writes before every data item and uses as its magic number. */
const selfDescribedCbor = Buffer.from([0xd9, 0xd9, 0xf7]);

/** A writer's buffer grown beyond this for one huge output is not kept for the next. */
const maxRetainedSize = 8 * 1024 * 1024;

/** Encoded map keys, shared by all writers; bounded, as keys come from clients too. */
const keyCache = new Map<string, Buffer>();
const maxCachedKeys = 4096;

/**
 * Encodes JSON-shaped values as kube's CBOR encode mode does (apimachinery serializer/cbor/internal/modes.Encode):
 * strings and map keys as byte strings, integers (within int64) as CBOR integers, other numbers as the shortest of
 * float16/float32/float64 that keeps the value, definite lengths only. Keys keep the object's order, as kube's
 * responses and watch events do (they use its nondeterministic, unsorted mode). Like JSON.stringify, `toJSON` is
 * honoured and undefined/function members are left out of objects (null in arrays). Where a built-in kind has a Go
 * `[]byte` field (`ByteFields`), its base64 text is written as kube writes the bytes: a byte string in tag 22.
 */
export class CborWriter {
  private buf!: Buffer;
  private view!: DataView;
  private pos = 0;

  constructor(private readonly initialSize = 64 * 1024) {
    this.setBuffer(Buffer.allocUnsafe(initialSize));
  }

  /** Starts a new output (the buffer is reused between outputs). */
  reset(): this {
    this.pos = 0;
    return this;
  }

  /** A copy of what was written since `reset`. */
  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    // Do not keep a buffer grown for one huge output.
    if (this.buf.length > maxRetainedSize) this.setBuffer(Buffer.allocUnsafe(this.initialSize));
    return out;
  }

  raw(bytes: Uint8Array): this {
    const n = bytes.length;
    this.ensure(n);
    // A loop beats TypedArray#set for the few bytes of a key or a tag.
    if (n < 32) {
      const b = this.buf;
      for (let i = 0; i < n; i++) b[this.pos + i] = bytes[i]!;
    } else {
      this.buf.set(bytes, this.pos);
    }
    this.pos += n;
    return this;
  }

  /** The self-described CBOR tag kube puts before every data item it writes. */
  selfDescribed(): this {
    return this.raw(selfDescribedCbor);
  }

  head(major: number, n: number): this {
    this.ensure(9);
    const m = major << 5;
    const b = this.buf;
    if (n < 24) {
      b[this.pos++] = m | n;
    } else if (n < 0x100) {
      b[this.pos++] = m | 24;
      b[this.pos++] = n;
    } else if (n < 0x10000) {
      b[this.pos++] = m | 25;
      this.view.setUint16(this.pos, n);
      this.pos += 2;
    } else if (n < 0x100000000) {
      b[this.pos++] = m | 26;
      this.view.setUint32(this.pos, n);
      this.pos += 4;
    } else {
      // Integral doubles are exact under division by 2^32, so the halves are exact too.
      b[this.pos++] = m | 27;
      const hi = Math.floor(n / 0x100000000);
      this.view.setUint32(this.pos, hi);
      this.view.setUint32(this.pos + 4, n - hi * 0x100000000);
      this.pos += 8;
    }
    return this;
  }

  /** A string as a CBOR byte string of its UTF-8 bytes, as kube writes Go strings. */
  string(s: string): this {
    const len = s.length;
    if (len < 256) {
      // Short ASCII strings (most of them) are copied char by char: cheaper than the native UTF-8 calls.
      const headSize = len < 24 ? 1 : 2;
      this.ensure(headSize + len);
      const b = this.buf;
      let p = this.pos + headSize;
      let i = 0;
      for (; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i === len) {
        if (headSize === 1) {
          b[this.pos] = 0x40 | len;
        } else {
          b[this.pos] = 0x58;
          b[this.pos + 1] = len;
        }
        this.pos = p;
        return this;
      }
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.head(2, n);
    this.ensure(n);
    this.buf.write(s, this.pos, n, 'utf8');
    this.pos += n;
    return this;
  }

  number(v: number): this {
    if (Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 63) {
      if (v >= 0) return this.head(0, v);
      if (v >= -Number.MAX_SAFE_INTEGER) return this.head(1, -1 - v);
      return this.bigint(BigInt(v));
    }
    if (Number.isNaN(v)) throw errors.internal('cbor: unsupported value: floating-point NaN');
    if (!Number.isFinite(v)) throw errors.internal('cbor: unsupported value: floating-point infinity');
    this.ensure(9);
    const half = float16Bits(v);
    if (half >= 0) {
      this.buf[this.pos++] = 0xf9;
      this.view.setUint16(this.pos, half);
      this.pos += 2;
    } else if (Math.fround(v) === v) {
      this.buf[this.pos++] = 0xfa;
      this.view.setFloat32(this.pos, v);
      this.pos += 4;
    } else {
      this.buf[this.pos++] = 0xfb;
      this.view.setFloat64(this.pos, v);
      this.pos += 8;
    }
    return this;
  }

  private bigint(v: bigint): this {
    if (v < -(2n ** 63n) || v >= 2n ** 63n) throw errors.internal(`cbor: unsupported value: ${v} overflows int64`);
    const major = v < 0n ? 1 : 0;
    const n = v < 0n ? -1n - v : v;
    this.ensure(9);
    this.buf[this.pos++] = (major << 5) | 27;
    this.view.setBigUint64(this.pos, n);
    this.pos += 8;
    return this;
  }

  /** Go `[]byte` given as base64 text: its bytes as a byte string, in the "expected later base64" tag 22. */
  byteSlice(base64: string): this {
    const bytes = Buffer.from(base64, 'base64');
    return this.byte(0xd6).head(2, bytes.length).raw(bytes);
  }

  /** Any JSON value; `shape`: where its Go `[]byte` fields are. */
  value(v: unknown, key = '', shape?: ByteFields): this {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON(key: string): unknown }).toJSON(key);
    }
    switch (typeof v) {
      case 'string':
        return shape?.kind === 'bytes' ? this.byteSlice(v) : this.string(v);
      case 'number':
        return this.number(v);
      case 'boolean':
        return this.byte(v ? 0xf5 : 0xf4);
      case 'bigint':
        return this.bigint(v);
      case 'object':
        if (v === null) return this.byte(0xf6);
        if (Array.isArray(v)) return this.array(v, elementByteFields(shape));
        return this.object(v as Record<string, unknown>, shape);
      default:
        // undefined, functions and symbols: JSON.stringify writes null where it cannot leave them out.
        return this.byte(0xf6);
    }
  }

  /**
   * A list's items, whose encodings `cache` keeps per object (core/codec/encoded-items.ts); `shape`: their byte
   * fields (a stored object is always encoded with its kind's).
   */
  cachedObjects(a: unknown[], cache: EncodedItems, shape?: ByteFields): this {
    this.head(4, a.length);
    const encode = itemEncoder(shape);
    for (let i = 0; i < a.length; i++) {
      const item = a[i];
      if (item === null || typeof item !== 'object') this.value(item, String(i), shape);
      else this.raw(cache.bytes(item, encode));
    }
    return this;
  }

  /** Members of a map, as `object` writes them: each key, then its value (the caller leaves out unencodable ones). */
  members(o: Record<string, unknown>, keys: readonly string[], shape?: ByteFields): this {
    for (const k of keys) {
      this.key(k);
      this.value(o[k], k, memberByteFields(shape, k));
    }
    return this;
  }

  private array(a: unknown[], elemShape: ByteFields | undefined): this {
    this.head(4, a.length);
    for (let i = 0; i < a.length; i++) this.value(a[i], String(i), elemShape);
    return this;
  }

  private object(o: Record<string, unknown>, shape: ByteFields | undefined, cachedItems?: EncodedItems): this {
    const keys = Object.keys(o);
    let count = 0;
    for (const k of keys) if (isEncodable(o[k])) count++;
    this.head(5, count);
    for (const k of keys) {
      const v = o[k];
      if (!isEncodable(v)) continue;
      this.key(k);
      if (cachedItems && k === 'items' && Array.isArray(v)) this.cachedObjects(v, cachedItems, elementByteFields(memberByteFields(shape, k)));
      else this.value(v, k, memberByteFields(shape, k));
    }
    return this;
  }

  /** A list object (`items` an array) whose items' encodings `cache` keeps (see cachedObjects). */
  list(o: Record<string, unknown>, cache: EncodedItems, shape?: ByteFields): this {
    return this.object(o, shape, cache);
  }

  /** A map key: the same few keys recur in every object, so their encodings are kept. */
  key(k: string): this {
    let encoded = keyCache.get(k);
    if (encoded === undefined) {
      const start = this.pos;
      this.string(k);
      if (keyCache.size >= maxCachedKeys || k.length > 64) return this;
      encoded = Buffer.from(this.buf.subarray(start, this.pos));
      keyCache.set(k, encoded);
      return this;
    }
    return this.raw(encoded);
  }

  private byte(b: number): this {
    this.ensure(1);
    this.buf[this.pos++] = b;
    return this;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.setBuffer(next);
  }

  private setBuffer(b: Buffer): void {
    this.buf = b;
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
}

/** Object members JSON.stringify keeps. */
function isEncodable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/** The IEEE 754 half-precision bits of `v` when it is exactly representable there, else -1. */
function float16Bits(v: number): number {
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === 0) return sign;
  if (a > 65504) return -1;
  if (a < 2 ** -14) {
    const m = a * 2 ** 24;
    return Number.isInteger(m) ? sign | m : -1;
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  const m = (a / 2 ** e) * 1024;
  if (!Number.isInteger(m)) return -1;
  return sign | ((e + 15) << 10) | (m - 1024);
}

const shared = new CborWriter();
/** Encodes one list item at a time, while `shared` holds the list around it. */
const itemWriter = new CborWriter(4 * 1024);
/** Encoded list items, per object (see CborWriter.cachedObjects). */
const listItems = new EncodedItems();
const encodeItem = (item: object) => itemWriter.reset().value(item).finish();
/** Encodes list items whose byte fields `shape` describes. */
const itemEncoder = (shape: ByteFields | undefined) => (shape ? (item: object) => itemWriter.reset().value(item, '', shape).finish() : encodeItem);

/** One value as kube writes a whole object: the self-described tag, then the data item. `shape`: its byte fields. */
export function encodeCbor(value: unknown, shape?: ByteFields): Buffer {
  return shared.reset().selfDescribed().value(value, '', shape).finish();
}

/** A list (an object with an `items` array) as encodeCbor writes it, its items' encodings kept per object. */
export function encodeCborList(list: Record<string, unknown>, shape?: ByteFields): Buffer {
  return shared.reset().selfDescribed().list(list, listItems, shape).finish();
}

/**
 * The bytes encodeCborList writes, in pieces: the map up to the array head of its `field` (`items`), then each
 * element (objects' encodings kept per object as there), then the members after it. Each piece is finished before
 * the next is made, so other outputs may use the shared writers in between.
 */
export function* encodeCborListPieces(list: Record<string, unknown>, field = 'items', shape?: ByteFields): Iterable<Buffer> {
  const keys = Object.keys(list).filter((k) => isEncodable(list[k]));
  const at = keys.indexOf(field);
  const items = list[field] as unknown[];
  const itemShape = elementByteFields(memberByteFields(shape, field));
  const encode = itemEncoder(itemShape);
  yield shared.reset().selfDescribed().head(5, keys.length).members(list, keys.slice(0, at), shape).key(field).head(4, items.length).finish();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    yield item === null || typeof item !== 'object' ? itemWriter.reset().value(item, String(i), itemShape).finish() : listItems.bytes(item, encode);
  }
  yield shared.reset().members(list, keys.slice(at + 1), shape).finish();
}

/** A writer for callers composing one output from several parts (e.g. a watch event). */
export function sharedCborWriter(): CborWriter {
  return shared.reset();
}
