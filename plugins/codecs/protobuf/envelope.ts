import { errors } from '../../../core/errors/api-error.js';
import { KubeTypes } from './schema.js';
import { checkWire } from './wire-check.js';
import { str, sub, type Msg } from './json-shape.js';

/** The media type of Kubernetes' protobuf encoding. */
export const kubeProtobufMediaType = 'application/vnd.kubernetes.protobuf';

const magicBytes: readonly number[] = [0x6b, 0x38, 0x73, 0x00];

/** The 4-byte prefix of every Kubernetes protobuf payload: `k8s\0` (a copy; the codec keeps its own). */
export const kubeProtobufMagic: Uint8Array = Uint8Array.from(magicBytes);

/** The `runtime.Unknown` wrapper after the magic prefix. */
export interface KubeProtobufEnvelope {
  /** `typeMeta.apiVersion` ("" when absent). */
  apiVersion: string;
  /** `typeMeta.kind` ("" when absent). */
  kind: string;
  /** The serialized object (empty when absent). */
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

const malformed = (detail: string) => errors.badRequest(`the object provided is unrecognized or malformed: ${detail}`);

/**
 * Checks the magic prefix and decodes the `runtime.Unknown` envelope. Every defect is a 400: no prefix, an empty
 * body, malformed protobuf, or a content encoding/type other than plain Kubernetes protobuf.
 */
export function unwrapKubeProtobuf(data: Uint8Array): KubeProtobufEnvelope {
  const magic = magicBytes;
  if (data.length === 0) throw malformed('empty data');
  if (data.length < magic.length || magic.some((b, i) => data[i] !== b)) {
    throw malformed(`provided data does not appear to be a protobuf message, expected prefix [${Array.from(magic).join(' ')}]`);
  }
  if (data.length === magic.length) throw malformed('empty body');
  const body = data.subarray(magic.length);
  let unknown: Msg;
  try {
    checkWire(KubeTypes.Unknown, body);
    unknown = KubeTypes.Unknown.decode(body) as unknown as Msg;
  } catch (err) {
    throw malformed(`invalid runtime.Unknown envelope: ${(err as Error).message}`);
  }
  const typeMeta = sub(unknown, 'typeMeta');
  const raw = unknown.raw instanceof Uint8Array && Object.prototype.hasOwnProperty.call(unknown, 'raw') ? unknown.raw : new Uint8Array(0);
  const envelope: KubeProtobufEnvelope = {
    apiVersion: str(typeMeta, 'apiVersion'),
    kind: str(typeMeta, 'kind'),
    raw,
    contentEncoding: str(unknown, 'contentEncoding'),
    contentType: str(unknown, 'contentType'),
  };
  if (envelope.contentEncoding !== '') throw malformed(`unsupported contentEncoding ${JSON.stringify(envelope.contentEncoding)} in the protobuf envelope`);
  if (envelope.contentType !== '' && envelope.contentType !== kubeProtobufMediaType) {
    throw malformed(`unsupported contentType ${JSON.stringify(envelope.contentType)} in the protobuf envelope`);
  }
  return envelope;
}

/** Wraps a serialized object: magic prefix + `runtime.Unknown`, written as Go's marshaller writes it. */
export function wrapKubeProtobuf(typeMeta: { apiVersion: string; kind: string }, raw: Uint8Array): Buffer {
  const unknown = KubeTypes.Unknown.encode({
    typeMeta: { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind },
    raw,
    contentEncoding: '',
    contentType: '',
  }).finish();
  return Buffer.concat([Uint8Array.from(magicBytes), unknown]);
}
