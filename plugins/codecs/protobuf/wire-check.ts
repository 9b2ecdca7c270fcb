import protobuf from 'protobufjs';

/** A structural defect in protobuf bytes; the codec turns it into a 400. */
export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

/** Nesting limit for unknown groups (known messages nest only a few levels deep). */
const maxGroupDepth = 64;
const maxFieldNumber = 2 ** 29 - 1;

/**
 * Checks that `buf[start, end)` is a well-formed encoding of `type` before protobufjs decodes it: every varint ends
 * within 10 bytes, every length fits in its enclosing message, tags are legal, and known fields carry the wire type
 * their declaration implies (protobufjs would silently misread e.g. a string sent as a varint; Go's generated
 * unmarshallers refuse it with "wrong wireType"). Unknown fields are skipped, as Go does. Iterative for unknown
 * groups, recursive only along the (bounded) declared message nesting.
 */
export function checkWire(type: protobuf.Type, buf: Uint8Array, start = 0, end = buf.length): void {
  let pos = start;
  while (pos < end) {
    const [fieldNumber, wireType, afterTag] = readTag(buf, pos, end);
    pos = afterTag;
    const field = type.fieldsById[fieldNumber];
    if (!field) {
      pos = skipField(buf, pos, end, wireType);
      continue;
    }
    field.resolve();
    if (field instanceof protobuf.MapField) {
      expectWireType(type, field, wireType, 2);
      const [entryStart, entryEnd] = readLength(buf, pos, end);
      checkMapEntry(type, field, buf, entryStart, entryEnd);
      pos = entryEnd;
    } else {
      pos = checkValue(type, field, buf, pos, end, wireType);
    }
  }
  if (pos !== end) throw new WireError('unexpected end of message');
}

function checkMapEntry(owner: protobuf.Type, field: protobuf.MapField, buf: Uint8Array, start: number, end: number): void {
  let pos = start;
  while (pos < end) {
    const [fieldNumber, wireType, afterTag] = readTag(buf, pos, end);
    pos = afterTag;
    if (fieldNumber === 1) {
      pos = checkScalar(owner, field, field.keyType, buf, pos, end, wireType);
    } else if (fieldNumber === 2) {
      pos = checkValue(owner, field, buf, pos, end, wireType);
    } else {
      pos = skipField(buf, pos, end, wireType);
    }
  }
}

/** Checks one value of `field` (for a map field, an entry's value): an embedded message or a scalar; returns the position after it. */
function checkValue(owner: protobuf.Type, field: AnyField, buf: Uint8Array, pos: number, end: number, wireType: number): number {
  if (field.resolvedType instanceof protobuf.Type) {
    expectWireType(owner, field, wireType, 2);
    const [msgStart, msgEnd] = readLength(buf, pos, end);
    checkWire(field.resolvedType, buf, msgStart, msgEnd);
    return msgEnd;
  }
  return checkScalar(owner, field, field.type, buf, pos, end, wireType);
}

const varintTypes = new Set(['int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bool']);
const fixed64Types = new Set(['fixed64', 'sfixed64', 'double']);
const fixed32Types = new Set(['fixed32', 'sfixed32', 'float']);

type AnyField = protobuf.Field | protobuf.MapField;

function checkScalar(
  owner: protobuf.Type,
  field: AnyField,
  scalarType: string,
  buf: Uint8Array,
  pos: number,
  end: number,
  wireType: number,
): number {
  const isVarint = varintTypes.has(scalarType) || field.resolvedType instanceof protobuf.Enum;
  const expected = scalarType === 'string' || scalarType === 'bytes' ? 2 : isVarint ? 0 : fixed64Types.has(scalarType) ? 1 : fixed32Types.has(scalarType) ? 5 : -1;
  if (expected === -1) throw new WireError(`unsupported field type ${scalarType}`);
  // Repeated numeric fields may come packed (one length-delimited run of values).
  if (wireType === 2 && expected !== 2 && field instanceof protobuf.Field && field.repeated && !(field instanceof protobuf.MapField)) {
    const [runStart, runEnd] = readLength(buf, pos, end);
    let p = runStart;
    while (p < runEnd) p = expected === 0 ? readVarint(buf, p, runEnd)[1] : skipBytes(p, expected === 1 ? 8 : 4, runEnd);
    return runEnd;
  }
  expectWireType(owner, field, wireType, expected);
  return skipField(buf, pos, end, wireType);
}

function expectWireType(owner: protobuf.Type, field: AnyField, got: number, want: number): void {
  if (got !== want) throw new WireError(`wrong wireType = ${got} for field ${field.name} of ${owner.name}`);
}

/** Skips one field value (iteratively through nested groups); returns the position after it. */
function skipField(buf: Uint8Array, pos: number, end: number, wireType: number): number {
  let depth = 0;
  let wt = wireType;
  for (;;) {
    switch (wt) {
      case 0:
        pos = readVarint(buf, pos, end)[1];
        break;
      case 1:
        pos = skipBytes(pos, 8, end);
        break;
      case 2:
        pos = readLength(buf, pos, end)[1];
        break;
      case 3:
        depth++;
        if (depth > maxGroupDepth) throw new WireError('groups nested too deeply');
        break;
      case 4:
        if (depth === 0) throw new WireError('unexpected end group');
        depth--;
        break;
      case 5:
        pos = skipBytes(pos, 4, end);
        break;
      default:
        throw new WireError(`illegal wireType ${wt}`);
    }
    if (depth === 0) return pos;
    const [tag, afterTag] = readVarint(buf, pos, end);
    pos = afterTag;
    wt = tag % 8;
  }
}

function skipBytes(pos: number, n: number, end: number): number {
  if (pos + n > end) throw new WireError('unexpected EOF');
  return pos + n;
}

/** Reads a field's tag; returns its field number (which must be legal), its wire type and the position after it. */
function readTag(buf: Uint8Array, pos: number, end: number): [number, number, number] {
  const [tag, afterTag] = readVarint(buf, pos, end);
  const fieldNumber = Math.floor(tag / 8);
  const wireType = tag % 8;
  if (fieldNumber < 1 || fieldNumber > maxFieldNumber) throw new WireError(`illegal tag ${fieldNumber} (wire type ${wireType})`);
  return [fieldNumber, wireType, afterTag];
}

/** Reads a length prefix; returns the [start, end) of the bytes it announces, which must fit before `end`. */
function readLength(buf: Uint8Array, pos: number, end: number): [number, number] {
  const [len, start] = readVarint(buf, pos, end);
  if (len > end - start) throw new WireError('unexpected EOF: length exceeds the enclosing message');
  return [start, start + len];
}

/** Reads a base-128 varint of at most 10 bytes; the value is exact up to 2^53 (enough for tags and lengths). */
function readVarint(buf: Uint8Array, pos: number, end: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw new WireError('unexpected EOF in varint');
    const b = buf[pos++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, pos];
    scale *= 128;
  }
  throw new WireError('integer overflow: varint longer than 10 bytes');
}
