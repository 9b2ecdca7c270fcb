/*
 * The protobuf wire format, as much of it as etcd's messages use: varints (int64 fields as non-negative numbers below
 * 2^53, which revisions and counts are), bools, bytes, strings and nested messages. Hand-written encoders and decoders
 * (etcd-messages.ts) are built on these; a schema-driven codec would cost several times more per call.
 */

export const enum WireType {
  Varint = 0,
  Fixed64 = 1,
  Bytes = 2,
  Fixed32 = 5,
}

/** A message being written. Nested messages are written into their own writer and added with `message`. */
export class ProtoWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(capacity = 64) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  get length(): number {
    return this.pos;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  private varint(v: number): void {
    this.room(10);
    const buf = this.buf;
    while (v >= 0x80) {
      buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    buf[this.pos++] = v;
  }

  private tag(field: number, wire: WireType): void {
    this.varint(field * 8 + wire);
  }

  /** A non-negative integer field (int64/uint64/enum); zero is the default and is not written. */
  uint(field: number, v: number): this {
    if (v > 0) {
      this.tag(field, WireType.Varint);
      this.varint(v);
    }
    return this;
  }

  /** A non-negative integer member of a oneof: written even when zero (its presence selects the member). */
  oneofUint(field: number, v: number): this {
    this.tag(field, WireType.Varint);
    this.varint(v);
    return this;
  }

  bool(field: number, v: boolean | undefined): this {
    if (v) {
      this.tag(field, WireType.Varint);
      this.varint(1);
    }
    return this;
  }

  /** A bytes field; an absent or empty value is not written. */
  bytes(field: number, v: Uint8Array | undefined): this {
    if (!v || v.length === 0) return this;
    this.tag(field, WireType.Bytes);
    this.varint(v.length);
    this.room(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  /** A nested message field, written even when empty (presence matters for oneof members). */
  message(field: number, m: ProtoWriter): this {
    this.tag(field, WireType.Bytes);
    this.varint(m.pos);
    this.room(m.pos);
    m.buf.copy(this.buf, this.pos, 0, m.pos);
    this.pos += m.pos;
    return this;
  }

  /** The message as a gRPC length-prefixed frame: no compression flag, 4-byte big-endian length, the bytes. */
  grpcFrame(): Buffer {
    const out = Buffer.allocUnsafe(5 + this.pos);
    out[0] = 0;
    out.writeUInt32BE(this.pos, 1);
    this.buf.copy(out, 5, 0, this.pos);
    return out;
  }
}

/** A malformed message from etcd. */
export class ProtoError extends Error {
  constructor(message: string) {
    super(`etcd sent a malformed message: ${message}`);
    this.name = 'ProtoError';
  }
}

/** Reads the fields of one message: `while (r.next()) switch (r.field) { … default: r.skip() }`. */
export class ProtoReader {
  private pos: number;
  field = 0;
  wire: WireType = WireType.Varint;

  constructor(
    private readonly buf: Buffer,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  /** Moves to the next field; false at the end of the message. */
  next(): boolean {
    if (this.pos >= this.end) return false;
    const tag = this.varint();
    this.field = Math.floor(tag / 8);
    this.wire = tag % 8;
    if (this.field === 0) throw new ProtoError('field number 0');
    return true;
  }

  varint(): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoError('truncated varint');
      const b = this.buf[this.pos++]!;
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
    throw new ProtoError('varint longer than 10 bytes');
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  /** A length-delimited value as a view of the message's buffer. */
  bytes(): Buffer {
    const len = this.varint();
    if (len > this.end - this.pos) throw new ProtoError('length beyond the message');
    const start = this.pos;
    this.pos += len;
    return this.buf.subarray(start, this.pos);
  }

  string(): string {
    return this.bytes().toString('utf8');
  }

  /** A nested message: a reader over its bytes. */
  message(): ProtoReader {
    const b = this.bytes();
    return new ProtoReader(this.buf, b.byteOffset - this.buf.byteOffset, b.byteOffset - this.buf.byteOffset + b.length);
  }

  skip(): void {
    switch (this.wire) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Fixed64:
        this.advance(8);
        return;
      case WireType.Bytes:
        this.bytes();
        return;
      case WireType.Fixed32:
        this.advance(4);
        return;
      default:
        throw new ProtoError(`unsupported wire type ${this.wire}`);
    }
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw new ProtoError('truncated field');
    this.pos += n;
  }
}
