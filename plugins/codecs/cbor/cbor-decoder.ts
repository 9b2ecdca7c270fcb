import { isUtf8 } from 'node:buffer';
import { base64Error } from '../../../lib/go/json-decoding.js';
import { elementByteFields, memberByteFields, type ByteFields } from './byte-fields.js';
import { cborErrors } from './cbor-errors.js';
import { headBigInt, HeadReader, type Head } from './cbor-head.js';
import { epochTagToString, rfc3339TagToString } from './cbor-time.js';

/**
 * Decodes one CBOR data item that `checkWellFormed` accepted into the plain JSON-shaped value kube's decoder gives
 * for `map[string]interface{}` content: text and byte strings become strings, integers numbers (int64 only), floats
 * numbers, maps plain objects with string keys (duplicates refused), and tags are read as kube reads them (55799 and
 * unknown tags: their content; 0 and 1: RFC 3339 strings; 21–23: byte strings inside become base64url, base64 or
 * base16 text). `undefined` and simple values other than true/false/null are refused. Throws CborError.
 *
 * `shape`: where the Go type the content is decoded into (a built-in kind's) has `[]byte` fields. There, as kube
 * decodes into them, a byte string in tag 21, 22 or 23 holds the raw bytes, an untagged one their base64 text, and
 * anything else but null is refused; kapi's object has the bytes as base64 text, as in JSON. On the way there, a
 * value of the wrong CBOR type is refused as kube's decoder refuses it.
 */
export function decodeCborContent(data: Buffer, shape?: ByteFields): Record<string, unknown> | null {
  return new ContentDecoder(data).top(shape);
}

/** Tags 21, 22, 23 ("expected later encoding") change how byte strings inside them become strings. */
type ByteEncoding = 0 | 21 | 22 | 23;

/** Reads values from a well-formed data item, one head at a time (the TypeMeta probe reads with it too). */
export class ContentDecoder {
  private readonly r: HeadReader;

  constructor(private readonly data: Buffer) {
    this.r = new HeadReader(data);
  }

  /** The whole item decoded into a `map[string]interface{}`: a map, or null/undefined for no content. */
  top(shape?: ByteFields): Record<string, unknown> | null {
    let enc: ByteEncoding = 0;
    for (;;) {
      const initial = this.data[this.r.off]!;
      if (initial === 0xf6 || initial === 0xf7) return null;
      const h = this.r.readHead();
      if (h.major === 5) return this.map(h, enc, shape);
      if (h.major !== 6) throw cborErrors.cannotUnmarshal(h.major, 'map[string]interface {}');
      if (isByteEncodingTag(h)) enc = h.value as ByteEncoding;
    }
  }

  /** Skips one (well-formed) item. */
  skip(): void {
    const h = this.r.readHead();
    const indefinite = h.ai === 31;
    switch (h.major) {
      case 2:
      case 3:
        if (indefinite) while (!this.atBreak()) this.skip();
        else this.r.off += h.value;
        return;
      case 4:
      case 5: {
        if (indefinite) {
          while (!this.atBreak()) this.skip();
          return;
        }
        const items = h.major === 5 ? h.value * 2 : h.value;
        for (let i = 0; i < items; i++) this.skip();
        return;
      }
      case 6:
        return this.skip();
      default:
        return;
    }
  }

  /** Reads the head of the next item. */
  head(): Head {
    return this.r.readHead();
  }

  /** The next byte, not consumed. */
  peek(): number {
    return this.data[this.r.off]!;
  }

  /**
   * The next value; `shape`: the byte fields of the Go type it is decoded into, and `field` the struct field kube's
   * errors name (`v1.Secret.data`: the outermost one, as fxamacker/cbor reports it).
   */
  private value(enc: ByteEncoding, shape?: ByteFields, field?: string): unknown {
    const h = this.r.readHead();
    if (shape !== undefined) checkFits(h, shape, field);
    switch (h.major) {
      case 0:
        if (h.ai === 27 && h.hi >= 0x80000000) throw cborErrors.intOverflow(0, headBigInt(h));
        return h.value;
      case 1:
        if (h.ai === 27 && h.hi >= 0x80000000) throw cborErrors.intOverflow(1, -1n - headBigInt(h));
        // Beyond 2^53, -1 - n would round twice.
        return h.value > Number.MAX_SAFE_INTEGER ? Number(-1n - headBigInt(h)) : -1 - h.value;
      case 2:
        return shape?.kind === 'bytes' ? this.byteSlice(h, enc) : this.byteString(h, enc);
      case 3:
        return this.textString(h);
      case 4:
        return this.array(h, enc, elementByteFields(shape), field);
      case 5:
        return this.map(h, enc, shape, field);
      case 6:
        return this.tagged(h, enc, shape, field);
      default:
        return simple(h);
    }
  }

  private tagged(h: Head, enc: ByteEncoding, shape: ByteFields | undefined, field: string | undefined): unknown {
    if (h.ai === 27) return this.value(enc, shape, field);
    switch (h.value) {
      case 0: {
        const major = this.peek() >> 5;
        if (major !== 3) throw cborErrors.tagContent(0, 'text string', major);
        return rfc3339TagToString(this.textString(this.r.readHead()));
      }
      case 1: {
        const initial = this.peek();
        const major = initial >> 5;
        if (major > 1 && (initial < 0xf9 || initial > 0xfb)) throw cborErrors.tagContent(1, 'integer or floating-point number', major);
        const t = this.r.readHead();
        if (t.major <= 1 && t.ai === 27 && t.hi >= 0x80000000) throw cborErrors.cannotUnmarshal(t.major, 'time.Time');
        return epochTagToString(t.major === 7 ? t.float : t.major === 0 ? t.value : -1 - t.value);
      }
      case 21:
      case 22:
      case 23:
        return this.value(h.value as ByteEncoding, shape, field);
      default:
        // 55799 (self-described CBOR) and tags kube does not know: their content.
        return this.value(enc, shape, field);
    }
  }

  private array(h: Head, enc: ByteEncoding, elemShape?: ByteFields, field?: string): unknown[] {
    const out: unknown[] = [];
    if (h.ai === 31) {
      while (!this.atBreak()) out.push(this.value(enc, elemShape, field));
    } else {
      for (let i = 0; i < h.value; i++) out.push(this.value(enc, elemShape, field));
    }
    return out;
  }

  private map(h: Head, enc: ByteEncoding, shape?: ByteFields, field?: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    const pairs = h.ai === 31 ? Infinity : h.value;
    for (let i = 0; i < pairs && !(h.ai === 31 && this.atBreak()); i++) {
      const { key, identity } = this.key(enc);
      if (seen.has(identity)) throw cborErrors.duplicateKey(key, i);
      seen.add(identity);
      const member = memberByteFields(shape, key);
      const v = member === undefined ? this.value(enc) : this.value(enc, member, field ?? `${shape!.name}.${key}`);
      // An own property, as JSON.parse makes it, even for "__proto__".
      if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
    }
    return out;
  }

  /**
   * A map key decoded into a Go string: text or byte strings (null and undefined give ""). `identity` tells keys
   * apart as Go compares them, byte by byte, also when the bytes are not UTF-8.
   */
  private key(enc: ByteEncoding): { key: string; identity: string } {
    const h = this.r.readHead();
    switch (h.major) {
      case 2: {
        const bytes = this.bytes(h);
        const key = byteStringToString(bytes, enc);
        return { key, identity: enc || isUtf8(bytes) ? key : '\0' + bytes.toString('latin1') };
      }
      case 3: {
        const key = this.textString(h);
        return { key, identity: key };
      }
      case 6:
        return this.key(isByteEncodingTag(h) ? (h.value as ByteEncoding) : enc);
      case 7:
        if (h.ai === 22 || h.ai === 23) return { key: '', identity: '' };
        throw cborErrors.cannotUnmarshal(7, 'string');
      default:
        throw cborErrors.cannotUnmarshal(h.major, 'string');
    }
  }

  byteString(h: Head, enc: ByteEncoding): string {
    return byteStringToString(this.bytes(h), enc);
  }

  /** A byte string decoded into a Go `[]byte`, as base64 text: tagged 21–23, the raw bytes; untagged, base64 text. */
  private byteSlice(h: Head, enc: ByteEncoding): string {
    const bytes = this.bytes(h);
    if (enc !== 0) return bytes.toString('base64');
    const text = bytes.toString('latin1');
    const invalid = base64Error(text);
    if (invalid !== undefined) throw cborErrors.base64(invalid);
    return Buffer.from(text, 'base64').toString('base64');
  }

  textString(h: Head): string {
    const bytes = this.bytes(h);
    if (!isUtf8(bytes)) throw cborErrors.invalidUtf8();
    return bytes.toString('utf8');
  }

  /** A string's bytes; indefinite-length strings are joined from their chunks. */
  private bytes(h: Head): Buffer {
    if (h.ai !== 31) {
      const start = this.r.off;
      this.r.off += h.value;
      return this.data.subarray(start, this.r.off);
    }
    const chunks: Buffer[] = [];
    while (!this.atBreak()) chunks.push(this.bytes(this.r.readHead()));
    return Buffer.concat(chunks);
  }

  /** Consumes a break code if one is next. */
  private atBreak(): boolean {
    if (this.data[this.r.off] !== 0xff) return false;
    this.r.off++;
    return true;
  }
}

/** The CBOR major type a value of `shape`'s Go type is read from (null, and tags, which `tagged` reads through, aside). */
const majorOf = { bytes: 2, slice: 4, struct: 5, map: 5 } as const;

/** Refuses a value of the wrong CBOR type for the Go type it is decoded into, as fxamacker/cbor's UnmarshalTypeError. */
function checkFits(h: Head, shape: ByteFields, field: string | undefined): void {
  if (h.major === 6 || h.major === majorOf[shape.kind] || (h.major === 7 && (h.ai === 22 || h.ai === 23))) return;
  throw cborErrors.cannotUnmarshal(h.major, shape.name, field);
}

function isByteEncodingTag(h: Head): boolean {
  return h.ai !== 27 && (h.value === 21 || h.value === 22 || h.value === 23);
}

function byteStringToString(bytes: Buffer, enc: ByteEncoding): string {
  switch (enc) {
    case 21:
      return bytes.toString('base64url');
    case 22:
      return bytes.toString('base64');
    case 23:
      return bytes.toString('hex');
    default:
      return bytes.toString('utf8');
  }
}

/** false, true, null, floats; kube refuses every other simple value (undefined included). */
function simple(h: Head): unknown {
  switch (h.ai) {
    case 20:
      return false;
    case 21:
      return true;
    case 22:
      return null;
    case 25:
    case 26:
    case 27:
      return h.float;
    default:
      throw cborErrors.unacceptable(7, `simple value ${h.ai === 24 ? h.value : h.ai} is not recognized`);
  }
}
