import { ApiError, errors } from '../../../core/errors/api-error.js';
import type { BodyCodec } from '../../../core/codec/body-codec.js';
import { kubeProtobufMediaType, unwrapKubeProtobuf, wrapKubeProtobuf } from './envelope.js';
import { protobufKind } from './kinds.js';
import { checkWire } from './wire-check.js';
import type { JsonObject, Msg } from './json-shape.js';

/** Media types offered instead when a kind has no protobuf encoding. */
const jsonMediaTypes = ['application/json', 'application/yaml'];

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}

/**
 * Decodes a Kubernetes protobuf payload (magic + `runtime.Unknown`) into the JSON object kube's JSON encoding gives
 * the same Go object, with `apiVersion`/`kind` from the envelope. As kube does (copyKindDefaults), an envelope without
 * apiVersion or kind takes them from `expected`, what the endpoint serves.
 *
 * Throws ApiError: 400 for a missing/wrong prefix or malformed bytes, 415 for a kind without a protobuf encoding.
 */
export function decodeKubeProtobuf(data: Uint8Array, expected?: { apiVersion: string; kind: string }): JsonObject {
  const envelope = unwrapKubeProtobuf(data);
  const apiVersion = envelope.apiVersion || expected?.apiVersion || '';
  const kind = envelope.kind || expected?.kind || '';
  if (!kind) throw errors.badRequest(`the object provided is unrecognized or malformed: Object 'Kind' is missing in the protobuf envelope`);
  if (!apiVersion) throw errors.badRequest(`the object provided is unrecognized or malformed: Object 'apiVersion' is missing in the protobuf envelope`);
  const k = protobufKind(apiVersion, kind);
  // Custom resources have no protobuf encoding in Kubernetes either; clients send those as JSON.
  if (!k) throw errors.unsupportedMediaType(jsonMediaTypes);
  try {
    checkWire(k.type, envelope.raw);
    const message = k.type.decode(envelope.raw) as unknown as Msg;
    return { kind, apiVersion, ...k.toJSON(message) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw errors.badRequest(`${kind} in version "${versionOf(apiVersion)}" cannot be handled as a ${expected?.kind || kind}: ${(err as Error).message}`);
  }
}

/**
 * Encodes a JSON object of a kind with a protobuf encoding as Kubernetes protobuf (magic + `runtime.Unknown`), the
 * bytes Go's marshaller produces for the same object. Throws ApiError 406 for other kinds and 500 when the object
 * does not fit its type (e.g. a non-string name).
 */
export function encodeKubeProtobuf(obj: Record<string, unknown>): Buffer {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !apiVersion || !kind) {
    throw errors.internal('cannot encode as protobuf: the object has no apiVersion/kind');
  }
  const k = protobufKind(apiVersion, kind);
  if (!k) throw errors.notAcceptable(`${kind} in ${apiVersion} has no protobuf encoding; accepted media types include: ${jsonMediaTypes.join(', ')}`);
  let raw: Uint8Array;
  try {
    const message = k.fromJSON(obj);
    const problem = k.type.verify(message);
    if (problem) throw new Error(problem);
    raw = k.type.encode(message).finish();
  } catch (err) {
    throw errors.internal(`cannot encode ${kind} as protobuf: ${(err as Error).message}`);
  }
  return wrapKubeProtobuf({ apiVersion, kind }, raw);
}

/** The `BodyCodec` for `application/vnd.kubernetes.protobuf` request bodies (Namespace, DeleteOptions). */
export class KubeProtobufCodec implements BodyCodec {
  readonly mediaTypes = [kubeProtobufMediaType];

  decode(raw: Buffer, expected: { apiVersion: string; kind: string }): unknown {
    return decodeKubeProtobuf(raw, expected);
  }
}
