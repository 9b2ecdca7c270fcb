import { ApiError, errors } from '../../../core/contracts/api-error.js';
import type { Codec, ListArrayField, ListObject, TypeMeta, WatchFraming } from '../../../core/contracts/codec.js';
import { summarizeBody } from '../../../lib/codec/summarize-body.js';
import { EnvelopeError, envelopeAround, kubeProtobufMediaType, unwrapKubeProtobuf, wrapKubeProtobuf } from './envelope.js';
import { builtinProtobufKind, type ProtobufKind } from './kinds.js';
import { decodeMessage } from './wire-reader.js';
import { encodeMessage } from './wire-writer.js';
import type { JsonObject } from './json-shape.js';
import { protobufWatchFraming } from './watch-framing.js';
import { ListMessage } from './list-encoding.js';

/** Finds the protobuf form of a kind: the built-in ones, then whatever else (custom resources) a hook knows. */
export type KindLookup = (t: TypeMeta) => ProtobufKind | undefined;

/** Media types offered instead when a kind has no protobuf encoding. */
const jsonMediaTypes = ['application/json', 'application/yaml'];

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}


/**
 * Decodes a Kubernetes protobuf payload (magic + `runtime.Unknown`) into the JSON object kube's JSON encoding gives
 * the same Go object, with `apiVersion`/`kind` from the envelope; as kube does (copyKindDefaults), an envelope without
 * them takes them from `expected`, what the endpoint serves.
 *
 * Throws ApiError 400 (kube's texts) for a missing prefix or malformed bytes, 415 for a kind without a protobuf encoding.
 */
export function decodeKubeProtobuf(data: Uint8Array, expected: TypeMeta, lookup: KindLookup = builtinProtobufKind): JsonObject {
  let envelope;
  try {
    envelope = unwrapKubeProtobuf(data);
  } catch (err) {
    if (!(err instanceof EnvelopeError)) throw err;
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${expected.kind}): ${err.message} (${summarizeBody(data)})`);
  }
  const kind = envelope.kind || expected.kind;
  const apiVersion = envelope.apiVersion || expected.apiVersion;
  const k = lookup({ apiVersion, kind });
  // Custom resources have no protobuf encoding in Kubernetes either (unless kapi knows their field numbers).
  if (!k) throw errors.unsupportedMediaType(jsonMediaTypes);
  try {
    return { kind, apiVersion, ...k.toJSON(decodeMessage(k.type, envelope.raw)) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw errors.badRequest(`${kind} in version ${JSON.stringify(versionOf(apiVersion))} cannot be handled as a ${expected.kind}: ${(err as Error).message}`);
  }
}

/**
 * Encodes a JSON object of a kind with a protobuf encoding as Kubernetes protobuf (magic + `runtime.Unknown`), the
 * bytes Go's marshaller writes for the same object. Throws ApiError 406 (kube's text) for other kinds and 500 when
 * the object does not fit its type (e.g. a non-string name).
 */
export function encodeKubeProtobuf(obj: Record<string, unknown>, lookup: KindLookup = builtinProtobufKind): Buffer {
  const { typeMeta, k } = protobufKindOf(obj, lookup);
  let raw: Uint8Array;
  try {
    raw = listMessage(obj, k, lookup)?.encode() ?? encodeMessage(k.type, k.fromJSON(obj));
  } catch (err) {
    throw cannotEncode(typeMeta, err);
  }
  return wrapKubeProtobuf(typeMeta, raw);
}

/**
 * The bytes encodeKubeProtobuf writes for a list, in pieces: first one empty piece per item encoded (the envelope
 * starts with the list message's length), then the envelope's head, the message and the envelope's tail. Errors
 * found before any item is encoded are thrown now; an item that does not fit its type fails the iteration.
 */
export function encodeKubeProtobufListPieces(list: Record<string, unknown>, lookup: KindLookup = builtinProtobufKind): Iterable<Buffer> {
  const { typeMeta, k } = protobufKindOf(list, lookup);
  let message: ListMessage | undefined;
  try {
    message = listMessage(list, k, lookup);
  } catch (err) {
    throw cannotEncode(typeMeta, err);
  }
  return message ? listPieces(typeMeta, message) : [encodeKubeProtobuf(list, lookup)];
}

const noBytes = Buffer.alloc(0);

function* listPieces(typeMeta: TypeMeta, message: ListMessage): Iterable<Buffer> {
  try {
    for (const _ of message.encodeItems()) yield noBytes;
  } catch (err) {
    throw cannotEncode(typeMeta, err);
  }
  const { head, tail } = envelopeAround(typeMeta, message.length);
  yield head;
  yield* message.pieces();
  yield tail;
}

/** The object's apiVersion/kind and protobuf kind; 500 without apiVersion/kind, 406 (kube's text) for a kind without one. */
function protobufKindOf(obj: Record<string, unknown>, lookup: KindLookup): { typeMeta: TypeMeta; k: ProtobufKind } {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !apiVersion || !kind) {
    throw errors.internal('cannot encode as protobuf: the object has no apiVersion/kind');
  }
  const k = lookup({ apiVersion, kind });
  if (!k) {
    const goType = Array.isArray(obj.items) ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
    throw errors.notAcceptable(`object ${goType} does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`);
  }
  return { typeMeta: { apiVersion, kind }, k };
}

function cannotEncode(typeMeta: TypeMeta, err: unknown) {
  return errors.internal(`cannot encode ${typeMeta.kind} as protobuf: ${(err as Error).message}`);
}

/** For a list whose first item names its kind: its message with that item kind (see list-encoding.ts). */
function listMessage(obj: Record<string, unknown>, k: ProtobufKind, lookup: KindLookup): ListMessage | undefined {
  const first = Array.isArray(obj['items']) ? (obj['items'][0] as Record<string, unknown> | undefined) : undefined;
  if (!first || typeof first['apiVersion'] !== 'string' || typeof first['kind'] !== 'string') return undefined;
  const itemKind = lookup({ apiVersion: first['apiVersion'], kind: first['kind'] });
  return itemKind ? ListMessage.of(k, itemKind, obj) : undefined;
}

/**
 * The `application/vnd.kubernetes.protobuf` codec: the built-in and meta kinds kapi serves (and custom resources the
 * lookup knows), for responses, request bodies and watch streams.
 */
export class KubeProtobufCodec implements Codec {
  readonly mediaType = kubeProtobufMediaType;
  readonly bodyMediaTypes = [kubeProtobufMediaType];
  readonly stream: WatchFraming;
  private readonly lookup: KindLookup;

  constructor(customKinds?: KindLookup) {
    this.lookup = customKinds ? (t) => builtinProtobufKind(t) ?? customKinds(t) : builtinProtobufKind;
    this.stream = protobufWatchFraming((obj) => this.encode(obj));
  }

  encodes(type: TypeMeta): boolean {
    return this.lookup(type) !== undefined;
  }

  encode(object: object): Buffer {
    return encodeKubeProtobuf(object as Record<string, unknown>, this.lookup);
  }

  encodeListPieces(list: ListObject, field: ListArrayField = 'items'): Iterable<Buffer> {
    return field === 'items' ? encodeKubeProtobufListPieces(list, this.lookup) : [this.encode(list)];
  }

  decode(raw: Buffer, expected: TypeMeta): unknown {
    return decodeKubeProtobuf(raw, expected, this.lookup);
  }
}
