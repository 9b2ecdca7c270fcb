/**
 * A codec plugin for request bodies in a wire format beyond JSON/YAML (e.g. Kubernetes protobuf). It turns the
 * bytes into the plain JSON-shaped object every later stage works with.
 */
export interface BodyCodec {
  /** The media types it decodes, without parameters (e.g. `application/vnd.kubernetes.protobuf`). */
  readonly mediaTypes: string[];
  /** Decodes one object; throws an ApiError (400) for malformed input. `expected` is what the endpoint serves. */
  decode(raw: Buffer, expected: { apiVersion: string; kind: string }): unknown;
}
