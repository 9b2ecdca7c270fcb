import { defineModule, type Module } from '../../../core/contracts/module.js';
import { Tokens } from '../../../core/contracts/tokens.js';
import { servedByteFields } from './byte-field-kinds.js';
import { CborCodec } from './cbor-codec.js';

export { CborCodec, cborApplyPatchMediaType, cborMediaType, decodeCborBody } from './cbor-codec.js';
export { encodeCbor } from './cbor-encoder.js';
export { cborSequenceMediaType, encodeCborWatchEvent } from './watch-event.js';

/**
 * Registers the CBOR codec (`application/cbor`, `application/cbor-seq` watches, `application/apply-patch+cbor`), with
 * the `[]byte` fields of the built-in kinds served.
 */
export function cborCodec(): Module {
  return defineModule('cbor-codec', (c) => {
    c.register(Tokens.Codec, { useValue: new CborCodec(servedByteFields(c.resolve(Tokens.Registry))) });
  });
}
