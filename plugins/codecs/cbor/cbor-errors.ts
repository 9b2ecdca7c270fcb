/**
 * The errors kube's CBOR decoder (fxamacker/cbor in the modes kube configures) reports, with its exact texts: kube
 * puts them into the 400 Status message.
 */
export class CborError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CborError';
  }
}

/** fxamacker's names for the major types (they appear in its messages). */
export function majorName(major: number): string {
  return ['positive integer', 'negative integer', 'byte string', 'UTF-8 text string', 'array', 'map', 'tag', 'primitives'][major]!;
}

export const cborErrors = {
  unexpectedEnd: () => new CborError('unexpected EOF'),
  empty: () => new CborError('EOF'),
  extraneous: (bytes: number, index: number) => new CborError(`cbor: ${bytes} bytes of extraneous data starting at index ${index}`),
  invalidAdditionalInfo: (ai: number, major: number) => new CborError(`cbor: invalid additional information ${ai} for type ${majorName(major)}`),
  unexpectedBreak: () => new CborError('cbor: unexpected "break" code'),
  invalidSimple: (value: number) => new CborError(`cbor: invalid simple value ${value} for type primitives`),
  lengthOverflow: (major: number, length: bigint, container: boolean) =>
    new CborError(`cbor: ${majorName(major)} length ${length} is too large, ${container ? 'it would cause' : 'causing'} integer overflow`),
  maxNesting: (max: number) => new CborError(`cbor: exceeded max nested level ${max}`),
  maxArrayElements: (max: number) => new CborError(`cbor: exceeded max number of elements ${max} for CBOR array`),
  maxMapPairs: (max: number) => new CborError(`cbor: exceeded max number of key-value pairs ${max} for CBOR map`),
  wrongChunk: (chunkMajor: number, major: number) => new CborError(`cbor: wrong element type ${majorName(chunkMajor)} for indefinite-length ${majorName(major)}`),
  nestedIndefiniteChunk: (major: number) => new CborError(`cbor: indefinite-length ${majorName(major)} chunk is not definite-length`),
  unacceptable: (major: number, what: string) => new CborError(`cbor: data item of cbor type ${majorName(major)} is not accepted by protocol: ${what}`),
  invalidUtf8: () => new CborError('cbor: invalid UTF-8 string'),
  intOverflow: (major: number, value: bigint) => new CborError(`cbor: cannot unmarshal ${majorName(major)} into Go value of type int64 (${value} overflows Go's int64)`),
  cannotUnmarshal: (major: number, goType: string, field?: string) =>
    new CborError(`cbor: cannot unmarshal ${majorName(major)} into Go ${field ? `struct field ${field}` : 'value'} of type ${goType}`),
  keyNotFieldName: (major: number) =>
    new CborError(`cbor: cannot unmarshal ${majorName(major)} into Go value of type string (map key is of type ${majorName(major)} and cannot be used to match struct field name)`),
  duplicateKey: (key: string, index: number) => new CborError(`cbor: found duplicate map key "${key}" at map element index ${index}`),
  base64: (cause: string) => new CborError(`cbor: failed to decode base64 from byte string: ${cause}`),
  tagContent: (tag: number, expected: string, got: number) => new CborError(`cbor: tag number ${tag} must be followed by ${expected}, got ${majorName(got)}`),
};
