import type { ByteFields } from './byte-fields.js';
import { sharedCborWriter } from './cbor-encoder.js';

/** The watch response's media type: a CBOR sequence (RFC 8742) of events. */
export const cborSequenceMediaType = 'application/cbor-seq';

/**
 * One watch event as kube's CBOR stream serializer writes it: a self-described `{type, object}` map whose `object`
 * is the embedded object as the CBOR serializer writes it, self-described tag included. Each event is one data
 * item, so the sequence needs no other framing. `shape`: the object's byte fields.
 */
export function encodeCborWatchEvent(type: string, object: object, shape?: ByteFields): Buffer {
  return sharedCborWriter().selfDescribed().head(5, 2).string('type').string(type).string('object').selfDescribed().value(object, '', shape).finish();
}
