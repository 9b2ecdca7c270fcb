/**
 * Counts the watch events in a watch response's bytes as they arrive, for each wire format, without decoding them:
 * the codec benchmark's 1,000 watches read tens of thousands of events a second, and the reading process must not be
 * the bottleneck it measures.
 *   - json: one event per line (a JSON text never holds a raw newline);
 *   - protobuf: 4-byte big-endian length, then that many bytes;
 *   - cbor: a CBOR sequence, one data item per event (items are skipped by their headers).
 */
export type StreamFormat = 'json' | 'protobuf' | 'cbor';

/** Feeds chunks in arrival order; each call returns the events completed by that chunk. */
export type FrameCounter = (chunk: Buffer) => number;

export function frameCounter(format: StreamFormat): FrameCounter {
  switch (format) {
    case 'json':
      return (chunk) => {
        let n = 0;
        for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) n++;
        return n;
      };
    case 'protobuf':
      return lengthPrefixedCounter();
    case 'cbor':
      return cborSequenceCounter();
  }
}

function lengthPrefixedCounter(): FrameCounter {
  let header = Buffer.alloc(0); // the incomplete length prefix carried over
  let remaining = 0; // payload bytes of the current frame still to come
  return (chunk) => {
    let n = 0;
    let pos = 0;
    while (pos < chunk.length) {
      if (remaining > 0) {
        const take = Math.min(remaining, chunk.length - pos);
        remaining -= take;
        pos += take;
        if (remaining === 0) n++;
        continue;
      }
      const need = 4 - header.length;
      const got = chunk.subarray(pos, pos + need);
      header = Buffer.concat([header, got]);
      pos += got.length;
      if (header.length < 4) break;
      remaining = header.readUInt32BE(0);
      header = Buffer.alloc(0);
      if (remaining === 0) n++;
    }
    return n;
  };
}

function cborSequenceCounter(): FrameCounter {
  let pending = Buffer.alloc(0); // the start of an item not complete yet
  return (chunk) => {
    const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let n = 0;
    let pos = 0;
    for (;;) {
      const end = cborItemEnd(buf, pos);
      if (end < 0) break;
      pos = end;
      n++;
    }
    pending = Buffer.from(buf.subarray(pos));
    return n;
  };
}

/** Where the CBOR data item starting at `pos` ends, or -1 when `buf` holds only part of it (or nothing). */
export function cborItemEnd(buf: Buffer, pos: number): number {
  // Items still to read at each open nesting level; -1 marks an indefinite-length container (ends with 0xff).
  const open: number[] = [1];
  while (open.length) {
    const top = open.length - 1;
    if (open[top] === 0) {
      open.pop();
      continue;
    }
    if (pos >= buf.length) return -1;
    const initial = buf[pos]!;
    if (initial === 0xff && open[top] === -1) {
      pos++;
      open.pop();
      continue;
    }
    if (open[top]! > 0) open[top]!--;
    const major = initial >> 5;
    const info = initial & 0x1f;
    pos++;
    let arg = info;
    if (info >= 24 && info <= 27) {
      const size = 1 << (info - 24);
      if (pos + size > buf.length) return -1;
      arg = size === 8 ? Number(buf.readBigUInt64BE(pos)) : size === 4 ? buf.readUInt32BE(pos) : size === 2 ? buf.readUInt16BE(pos) : buf[pos]!;
      pos += size;
    }
    const indefinite = info === 31;
    switch (major) {
      case 2:
      case 3:
        if (indefinite) open.push(-1);
        else {
          if (pos + arg > buf.length) return -1;
          pos += arg;
        }
        break;
      case 4:
        open.push(indefinite ? -1 : arg);
        break;
      case 5:
        open.push(indefinite ? -1 : 2 * arg);
        break;
      case 6:
        open.push(1); // a tag's content
        break;
      default:
        break; // integers, simple values and floats: the header was all
    }
  }
  return pos;
}
