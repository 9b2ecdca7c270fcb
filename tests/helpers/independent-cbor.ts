/**
 * A CBOR decoder and encoder independent of kapi's (node-cbor), for tests: byte strings come back as Buffers and maps
 * as Maps, as written on the wire; the self-described tag (55799) is dropped wherever it appears.
 */
import cbor from 'cbor';

function untag(v: unknown): unknown {
  if (v instanceof cbor.Tagged && v.tag === 55799) return untag(v.value);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, untag(x)]));
  if (Array.isArray(v)) return v.map(untag);
  return v;
}

export const independentCbor = {
  /** One data item. */
  decode: (bytes: Uint8Array): unknown => untag(cbor.decodeFirstSync(bytes, { preferMap: true })),
  /** Every data item of a CBOR sequence. */
  decodeMultiple: (bytes: Uint8Array): unknown[] => cbor.decodeAllSync(bytes, { preferMap: true }).map(untag),
  /** Text strings for strings and keys, no tag: what other CBOR encoders write. */
  encode: (value: unknown): Buffer => cbor.encodeOne(value),
};
