/**
 * HPACK (RFC 7541) for kapi's HTTP/2 client: a decoder for the header blocks etcd sends (static and dynamic table,
 * Huffman) and an encoder for request headers that never touches the peer's dynamic table.
 * Strings are byte strings: one char per octet (latin1), so sizes in octets are string lengths.
 */
import { HpackError } from './hpack-error.js';
import { huffmanDecode } from './hpack-huffman.js';

export { HpackError };

type Field = [name: string, value: string];

/** RFC 7541 Appendix A; index i + 1. */
const STATIC_TABLE: readonly (readonly [string, string])[] = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];

/** Larger integers are no sane index, length or table size; rejecting them keeps the arithmetic exact. */
const MAX_INTEGER = 2 ** 31 - 1;

/** §4.1: an entry's size counts its octets plus 32. */
const entrySize = (name: string, value: string) => name.length + value.length + 32;

/** Reads the primitive types of §5 from one header block. */
class BlockReader {
  private pos = 0;

  constructor(private readonly block: Buffer) {}

  get done(): boolean {
    return this.pos >= this.block.length;
  }

  /** The next octet, not consumed. */
  peek(): number {
    if (this.done) throw new HpackError('header block is truncated');
    return this.block[this.pos];
  }

  /** §5.1: an integer in the low prefixBits of the next octet, continued in 7-bit groups when those are all 1. */
  integer(prefixBits: number): number {
    const max = (1 << prefixBits) - 1;
    let value = this.octet() & max;
    if (value < max) return value;
    for (let shift = 0; ; shift += 7) {
      const octet = this.octet();
      value += (octet & 0x7f) * 2 ** shift;
      if (value > MAX_INTEGER) throw new HpackError('integer exceeds 2^31-1');
      if ((octet & 0x80) === 0) return value;
      if (shift === 28) throw new HpackError('integer encoding is too long');
    }
  }

  /** §5.2: a length-prefixed string literal, Huffman-coded when the high bit of its first octet is set. */
  string(): string {
    const huffman = (this.peek() & 0x80) !== 0;
    const length = this.integer(7);
    const start = this.pos;
    const end = start + length;
    if (end > this.block.length) throw new HpackError('header block is truncated');
    this.pos = end;
    return huffman ? huffmanDecode(this.block, start, end) : this.block.toString('latin1', start, end);
  }

  private octet(): number {
    const octet = this.peek();
    this.pos++;
    return octet;
  }
}

/** Decodes the header blocks of one HTTP/2 connection, in the order they arrive (they share the dynamic table). */
export class HpackDecoder {
  /** Oldest first: dynamic index 62 is the last element. */
  private readonly dynamic: Field[] = [];
  private dynamicSize = 0;
  /** The table's current maximum size, which the peer may lower (and raise again) up to maxTableSize. */
  private capacity: number;

  /**
   * maxTableSize is the SETTINGS_HEADER_TABLE_SIZE this endpoint advertises (4096 unless it sent another);
   * maxListSize bounds one block's decoded header list (§4.1 sizes, as SETTINGS_MAX_HEADER_LIST_SIZE counts them): an
   * indexed field is one octet on the wire and up to a table's worth decoded.
   */
  constructor(
    private readonly maxTableSize = 4096,
    private readonly maxListSize = Infinity,
  ) {
    this.capacity = maxTableSize;
  }

  /** Decodes one complete header block (HEADERS plus CONTINUATION payloads) into fields in wire order. */
  decode(block: Buffer): Field[] {
    const reader = new BlockReader(block);
    const fields: Field[] = [];
    let listSize = 0;
    const add = (name: string, value: string) => {
      listSize += entrySize(name, value);
      if (listSize > this.maxListSize) throw new HpackError(`header list exceeds ${this.maxListSize} bytes`);
      fields.push([name, value]);
    };
    while (!reader.done) {
      const first = reader.peek();
      if (first & 0x80) {
        // §6.1 indexed header field
        const [name, value] = this.entry(reader.integer(7));
        add(name, value);
      } else if (first & 0x40) {
        // §6.2.1 literal with incremental indexing
        const [name, value] = this.literal(reader, 6);
        this.insert(name, value);
        add(name, value);
      } else if (first & 0x20) {
        // §6.3 dynamic table size update; strict about §4.2: only before the block's first field.
        if (fields.length > 0) throw new HpackError('dynamic table size update after a header field');
        this.resize(reader.integer(5));
      } else {
        // §6.2.2 without indexing (0000xxxx), §6.2.3 never indexed (0001xxxx): both take a 4-bit prefix.
        add(...this.literal(reader, 4));
      }
    }
    return fields;
  }

  /** §2.3.3: index 1..61 is the static table, 62.. the dynamic table, newest first. */
  private entry(index: number): readonly [string, string] {
    if (index === 0) throw new HpackError('index 0 is not a table entry');
    if (index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1];
    const position = this.dynamic.length - (index - STATIC_TABLE.length);
    if (position < 0) throw new HpackError(`index ${index} is beyond the header tables`);
    return this.dynamic[position];
  }

  /** §6.2: a name given by index (non-zero) or as a literal, then a literal value. */
  private literal(reader: BlockReader, prefixBits: number): Field {
    const index = reader.integer(prefixBits);
    const name = index === 0 ? reader.string() : this.entry(index)[0];
    return [name, reader.string()];
  }

  /** §4.4: evict until the new entry fits; one larger than the whole table just empties it. */
  private insert(name: string, value: string): void {
    const size = entrySize(name, value);
    this.evictDownTo(this.capacity - size);
    if (size > this.capacity) return;
    this.dynamic.push([name, value]);
    this.dynamicSize += size;
  }

  private resize(size: number): void {
    if (size > this.maxTableSize) {
      throw new HpackError(`dynamic table size update to ${size} exceeds the maximum ${this.maxTableSize}`);
    }
    this.capacity = size;
    this.evictDownTo(size);
  }

  private evictDownTo(limit: number): void {
    while (this.dynamic.length > 0 && this.dynamicSize > limit) {
      const [name, value] = this.dynamic.shift()!;
      this.dynamicSize -= entrySize(name, value);
    }
  }
}

/**
 * Encodes request headers as literals without indexing with literal names and raw (non-Huffman) strings (§6.2.2), so
 * the peer's dynamic table is never used. Strings are written as latin1 octets, as the decoder reads them.
 */
export function encodeHeaderBlock(fields: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) parts.push(Buffer.of(0x00), rawString(name), rawString(value));
  return Buffer.concat(parts);
}

function rawString(text: string): Buffer {
  const octets = Buffer.from(text, 'latin1');
  return Buffer.concat([Buffer.from(integerWith7BitPrefix(octets.length)), octets]);
}

/** §5.1 with a 7-bit prefix and the Huffman flag clear. */
function integerWith7BitPrefix(value: number): number[] {
  if (value < 0x7f) return [value];
  const out = [0x7f];
  for (value -= 0x7f; value >= 0x80; value = Math.floor(value / 0x80)) out.push((value % 0x80) | 0x80);
  out.push(value);
  return out;
}
