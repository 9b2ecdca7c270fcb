import type { Codec } from '../contracts/codec.js';
import type { Negotiated } from './negotiated.js';
import { errors } from '../contracts/api-error.js';
import { baseMediaType } from '../contracts/body-decoding.js';

/** The default wire format: an absent Accept or Content-Type, `*\/*` and `application/*` mean JSON, as in kube. */
export const jsonMediaType = 'application/json';

/**
 * The codecs registered under `Tokens.Codec`, with what negotiation and the 406 / 415 texts need precomputed. JSON
 * comes first, then the others in registration order, which is the order kube lists its media types in when the
 * modules register them as kube does (json, yaml, protobuf, cbor).
 */
export class CodecSet {
  readonly all: readonly Codec[];
  /** The JSON codec: the default, and the one fast paths use. */
  readonly json: Codec;
  /** The response to an absent, `application/json` or `*\/*` Accept: built once, shared by every such request. */
  readonly plainJson: Negotiated;
  /** The response to an Accept naming one codec's media type and nothing else, per media type (built once). */
  readonly plain = new Map<string, Negotiated>();
  /** Every codec's media type: the list a 406 names. */
  readonly mediaTypes: string[];
  /**
   * The watch media types a 406 for a watch names, as kube's MediaTypesForSerializer builds them:
   * `<type>;stream=watch`, or the stream's own media type when it differs (`application/cbor-seq`).
   */
  readonly streamMediaTypes: string[];
  /** The request-body media types: the list a 415 names. */
  readonly bodyMediaTypes: string[];
  /** The server-side apply patch media types (`application/apply-patch+yaml`, `…+cbor`). */
  readonly applyPatchMediaTypes: string[];
  private readonly bodies = new Map<string, Codec>();
  private readonly applies = new Map<string, Codec>();

  constructor(codecs: readonly Codec[]) {
    const json = codecs.find((c) => c.mediaType === jsonMediaType);
    if (!json) throw new TypeError(`kapi: no codec for ${jsonMediaType} is registered (add the jsonCodec() module)`);
    this.json = json;
    this.all = [json, ...codecs.filter((c) => c !== json)];
    for (const codec of this.all) this.plain.set(codec.mediaType, Object.freeze({ codec, as: 'object', contentType: codec.mediaType }));
    this.plainJson = this.plain.get(jsonMediaType)!;
    this.mediaTypes = this.all.map((c) => c.mediaType);
    this.streamMediaTypes = this.all.flatMap((c) => (c.stream ? [streamMediaType(c)] : []));
    for (const c of this.all) {
      for (const t of c.bodyMediaTypes) if (!this.bodies.has(t)) this.bodies.set(t, c);
      if (c.applyPatchMediaType && !this.applies.has(c.applyPatchMediaType)) this.applies.set(c.applyPatchMediaType, c);
    }
    this.bodyMediaTypes = [...this.bodies.keys()];
    this.applyPatchMediaTypes = [...this.applies.keys()];
  }

  /**
   * The codec for a request body's Content-Type (parameters such as charset ignored); no Content-Type is JSON, as in
   * kube. Any other media type is 415 listing the body media types.
   */
  forBody(contentType: string | undefined): Codec {
    if (!contentType) return this.json;
    const codec = this.bodies.get(baseMediaType(contentType));
    if (!codec) throw errors.unsupportedMediaType(this.bodyMediaTypes);
    return codec;
  }

  /** The codec that decodes a server-side apply patch of this (parameter-free) media type, if any. */
  forApplyPatch(mediaType: string): Codec | undefined {
    return this.applies.get(mediaType);
  }
}

function streamMediaType(c: Codec): string {
  const streamType = baseMediaType(c.stream!.contentType);
  return streamType === c.mediaType ? `${c.mediaType};stream=watch` : c.stream!.contentType;
}
