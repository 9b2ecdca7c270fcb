import { KubeTypes } from './schema.js';
import { decodeMessage } from './wire-reader.js';
import { encodeMessage } from './wire-writer.js';
import { has, type Msg } from './json-shape.js';

/** The media type of Kubernetes' protobuf encoding. */
export const kubeProtobufMediaType = 'application/vnd.kubernetes.protobuf';

/** The 4-byte prefix of every Kubernetes protobuf payload: `k8s\0`. */
const magicBytes: readonly number[] = [0x6b, 0x38, 0x73, 0x00];

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

/** Bytes that are no Kubernetes protobuf envelope; the message is the Go serializer's. */
export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

const text = (m: Msg | undefined, key: string): string => (has(m, key) ? String(m![key]) : '');

/**
 * Checks the magic prefix and decodes the `runtime.Unknown` envelope. Throws EnvelopeError for an empty body, a
 * missing prefix, a malformed envelope, or a content encoding/type other than plain Kubernetes protobuf.
 */
export function unwrapKubeProtobuf(data: Uint8Array): KubeProtobufEnvelope {
  if (data.length === 0) throw new EnvelopeError('empty data');
  if (data.length < magicBytes.length || magicBytes.some((b, i) => data[i] !== b)) {
    throw new EnvelopeError(`provided data does not appear to be a protobuf message, expected prefix [${magicBytes.join(' ')}]`);
  }
  if (data.length === magicBytes.length) throw new EnvelopeError('empty body');
  const body = data.subarray(magicBytes.length);
  let unknown: Msg;
  try {
    unknown = decodeMessage(KubeTypes.Unknown, body);
  } catch (err) {
    throw new EnvelopeError((err as Error).message);
  }
  const typeMeta = has(unknown, 'typeMeta') ? (unknown.typeMeta as Msg) : undefined;
  const envelope: KubeProtobufEnvelope = {
    apiVersion: text(typeMeta, 'apiVersion'),
    kind: text(typeMeta, 'kind'),
    raw: has(unknown, 'raw') ? (unknown.raw as Uint8Array) : new Uint8Array(0),
    contentEncoding: text(unknown, 'contentEncoding'),
    contentType: text(unknown, 'contentType'),
  };
  if (envelope.contentEncoding !== '') throw new EnvelopeError(`unsupported contentEncoding ${JSON.stringify(envelope.contentEncoding)} in the protobuf envelope`);
  if (envelope.contentType !== '' && envelope.contentType !== kubeProtobufMediaType) {
    throw new EnvelopeError(`unsupported contentType ${JSON.stringify(envelope.contentType)} in the protobuf envelope`);
  }
  return envelope;
}

/** Wraps a serialized object: magic prefix + `runtime.Unknown`, written as Go's marshaller writes it. */
export function wrapKubeProtobuf(typeMeta: { apiVersion: string; kind: string }, raw: Uint8Array): Buffer {
  const unknown = encodeMessage(KubeTypes.Unknown, {
    typeMeta: { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind },
    raw,
    contentEncoding: '',
    contentType: '',
  }, raw.length + 64);
  const out = Buffer.allocUnsafe(magicBytes.length + unknown.length);
  out.set(magicBytes, 0);
  out.set(unknown, magicBytes.length);
  return out;
}
