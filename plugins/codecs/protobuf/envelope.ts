import { KubeTypes } from './schema.js';
import { decodeMessage } from './wire-reader.js';
import { encodeMessage, varintSize, writeVarint } from './wire-writer.js';
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
  const { head, tail } = envelopeAround(typeMeta, raw.length);
  return Buffer.concat([head, raw, tail], head.length + raw.length + tail.length);
}

/** The `raw` field's key in `runtime.Unknown`: field 2, wire type 2 (length-delimited). */
const rawKey = 0x12;

/**
 * What wrapKubeProtobuf writes before and after a serialized object of `rawLength` bytes, so that the object's bytes
 * may follow in pieces: the magic prefix, `typeMeta` and the `raw` field's key and length; then the content encoding
 * and type. Unknown's fields are written in field-number order (wire-writer.ts), `raw` between them.
 */
export function envelopeAround(typeMeta: { apiVersion: string; kind: string }, rawLength: number): { head: Buffer; tail: Buffer } {
  const meta = encodeMessage(KubeTypes.Unknown, { typeMeta: { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind } });
  const head = Buffer.allocUnsafe(magicBytes.length + meta.length + 1 + varintSize(rawLength));
  head.set(magicBytes, 0);
  head.set(meta, magicBytes.length);
  head[magicBytes.length + meta.length] = rawKey;
  writeVarint(head, magicBytes.length + meta.length + 1, rawLength);
  return { head, tail: contentFields };
}

/** Unknown's content encoding and type: always empty (plain Kubernetes protobuf), written as Go writes empty strings. */
const contentFields = encodeMessage(KubeTypes.Unknown, { contentEncoding: '', contentType: '' });
