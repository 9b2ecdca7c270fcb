/** An object's `apiVersion` and `kind`: what a codec needs to know to encode or decode it. */
export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

/**
 * A list as codecs encode it piece by piece: apiVersion, kind and metadata (or more), then, last, the array written
 * element by element: a list's `items`, or a Table's `rows`.
 */
export interface ListObject {
  [field: string]: unknown;
}

/** The array of a ListObject that is written element by element. */
export type ListArrayField = 'items' | 'rows';

/** How a codec writes a watch response: one self-delimiting frame per event. */
export interface WatchFraming {
  /** The watch response's Content-Type (e.g. `application/json`, `application/vnd.kubernetes.protobuf;stream=watch`). */
  readonly contentType: string;
  /** One watch event (`type` ADDED/MODIFIED/DELETED/BOOKMARK/ERROR, its object with apiVersion/kind) as framed bytes. */
  encodeEvent(type: string, object: object): Buffer;
}

/**
 * A wire format plugin (JSON, YAML, Kubernetes protobuf, CBOR, …), registered under `Tokens.Codec`. Content
 * negotiation picks one per request from `Accept` (responses, errors, watch streams) and from `Content-Type` (bodies).
 * Every method throws an ApiError for input it refuses, never another error.
 */
export interface Codec {
  /** The media type Accept names and responses carry, without parameters (e.g. `application/cbor`). */
  readonly mediaType: string;
  /** The request-body media types it decodes, without parameters; usually `[mediaType]`. */
  readonly bodyMediaTypes: readonly string[];
  /** The server-side apply patch media type it decodes (`application/apply-patch+yaml`, `…+cbor`), if any. */
  readonly applyPatchMediaType?: string;
  /** Its watch stream form; absent when the format has none (YAML), so a watch cannot negotiate it. */
  readonly stream?: WatchFraming;
  /** Whether it can encode objects of this kind (Kubernetes protobuf has messages for some kinds only). */
  encodes(type: TypeMeta): boolean;
  /** Encodes one object, which carries its apiVersion and kind. */
  encode(object: object): Buffer | string;
  /**
   * Encodes a list (an object whose array `field`, `items` by default, comes last) as pieces whose concatenation is
   * what `encode` would give, each cheap to make: the server writes a large list piece by piece and lets other
   * requests run in between. A piece may be empty: a step of work whose bytes come later (a format that writes
   * lengths before the items they measure). Checks that need no item encoding are done when it is called, so that
   * their errors are still answered as a Status.
   */
  encodeListPieces?(list: ListObject, field?: ListArrayField): Iterable<Buffer | string>;
  /**
   * Decodes one request body (400 for malformed input). `expected` is what the endpoint serves: formats whose
   * envelope may leave apiVersion/kind out take them from it, as kube does.
   */
  decode(raw: Buffer, expected: TypeMeta): unknown;
  /** Paths of keys the body repeats within one object (strict field validation reports them), for formats that can repeat keys. */
  duplicateFields?(raw: Buffer): string[];
  /**
   * The strict decoding errors of a body of a built-in kind (decoded into its Go struct) with unknown fields, given
   * their paths and the first one's index among the entries of its map; by default kube's JSON decoder's
   * (`unknown field "spec.bogus"` each).
   */
  unknownFieldErrors?(paths: string[], firstIndex: number): string[];
}
