/** Why a CRD version has no protobuf form: an unusable field-number annotation, a missing number, an unsupported schema. */
export class ProtoGenError extends Error {
  override readonly name = 'ProtoGenError';
}
