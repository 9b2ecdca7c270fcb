import { errors } from '../contracts/api-error.js';
import type { Codec, TypeMeta } from '../contracts/codec.js';
import type { CodecSet } from './codec-set.js';
import type { Negotiated } from './negotiated.js';

/** What a resource endpoint answers with, for negotiation. */
export interface Endpoint extends TypeMeta {
  /** Whether it answers with a list (so a PartialObjectMetadata conversion is a PartialObjectMetadataList). */
  list: boolean;
  /** Whether meta.k8s.io conversions (Table, PartialObjectMetadata) are served (reads only). */
  conversions: boolean;
  /** A watch: the codec must have a stream form. */
  watch: boolean;
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

/**
 * Accept's media ranges, best first: by q, then the more specific (`a/b` before `a/*` before `*\/*`, as kube's
 * goautoneg orders them), then in the client's order. Ranges with q=0 are left out.
 */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [{ type: '*/*', params: {}, q: 1 }];
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [rawType, ...rawParams] = part.split(';').map((s) => s.trim());
    // A bare `*` is read as `*/*` (goautoneg does too); anything else without a subtype is not a media range.
    const type = rawType === '*' ? '*/*' : rawType;
    if (!type || !/^[^/]+\/[^/]+$/.test(type)) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    if (!(q > 0)) continue;
    ranges.push({ type: type.toLowerCase(), params, q });
  }
  return ranges
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.q - a.r.q || specificity(b.r.type) - specificity(a.r.type) || a.i - b.i)
    .map((x) => x.r);
}

function specificity(type: string): number {
  if (type === '*/*') return 0;
  return type.endsWith('/*') ? 1 : 2;
}

/** Whether an Accept header is one every codec set answers with plain JSON: no parsing needed (the common case). */
export function isPlainJsonAccept(accept: string | undefined): boolean {
  return !accept || accept === 'application/json' || accept === '*/*';
}

/** Whether a media range names the codec: exactly, as `type/*`, or as `*\/*`. */
function matches(range: MediaRange, codec: Codec): boolean {
  if (range.type === '*/*' || range.type === codec.mediaType) return true;
  return range.type.endsWith('/*') && codec.mediaType.startsWith(range.type.slice(0, -1));
}

/** The `as=` kinds kube converts resources to, and the representation each one answers with. */
const conversions: Record<string, Negotiated['as']> = {
  Table: 'Table',
  PartialObjectMetadata: 'PartialObjectMetadata',
  PartialObjectMetadataList: 'PartialObjectMetadata',
};
const metaVersions = new Set(['v1', 'v1beta1']);
/** kube converts to Table for these media types only (RequestScope.AllowsMediaTypeTransform). */
const tableMediaTypes = new Set(['application/json', 'application/yaml']);

/**
 * Picks the response codec and representation from Accept, as kube-apiserver does for resource endpoints: for each
 * media range, best first, the first codec it names whose parameters the endpoint can satisfy wins. A codec that
 * cannot encode the representation is skipped (kube's StandardSerializers: no protobuf for custom resources), as is a
 * conversion the endpoint cannot do (an unknown `as`, a group other than meta.k8s.io, a version other than
 * v1/v1beta1, a Table in anything but JSON or YAML, any conversion on writes) and a `stream` other than `watch` or on
 * a codec without a stream form. Nothing acceptable is 406 listing every codec's media type; a watch whose choice
 * has no stream form is 406 listing the watch media types (NegotiateOutputMediaTypeStream).
 */
export function negotiate(accept: string | undefined, codecs: CodecSet, endpoint: Endpoint): Negotiated {
  // One media type without parameters (`application/cbor`): no parsing, the same answer as below.
  const plain = codecs.plain.get(accept ?? '');
  if (plain && plain.codec.encodes(endpoint) && (!endpoint.watch || plain.codec.stream)) return plain;
  for (const range of parseAccept(accept)) {
    for (const codec of codecs.all) {
      if (!matches(range, codec)) continue;
      const negotiated = acceptRange(range.params, codec, endpoint);
      if (!negotiated) continue;
      if (endpoint.watch && !codec.stream) throw notAcceptable(codecs.streamMediaTypes);
      return negotiated;
    }
  }
  throw notAcceptable(codecs.mediaTypes);
}

function notAcceptable(mediaTypes: string[]) {
  return errors.notAcceptable(`only the following media types are accepted: ${mediaTypes.join(', ')}`);
}

/** The response a media range's parameters ask of this codec, or undefined when the endpoint cannot give it. */
function acceptRange(params: Record<string, string>, codec: Codec, endpoint: Endpoint): Negotiated | undefined {
  const { as, g, v, stream, sv } = params;
  if (stream && (stream !== 'watch' || !codec.stream)) return undefined;
  if (sv && sv !== 'v1') return undefined; // the meta group's version, the only one kube serves generic output in
  // kube treats any of as/g/v as a conversion request (e.g. `g=meta.k8s.io;v=v1` alone names no kind: skipped).
  if (as === undefined && g === undefined && v === undefined) {
    return codec.encodes(endpoint) ? { codec, as: 'object', contentType: codec.mediaType } : undefined;
  }
  const target = as !== undefined && Object.hasOwn(conversions, as) ? conversions[as] : undefined;
  if (!endpoint.conversions || !target || g !== 'meta.k8s.io' || !metaVersions.has(v ?? '')) return undefined;
  if (target === 'Table' && !tableMediaTypes.has(codec.mediaType)) return undefined;
  const metaVersion = v as 'v1' | 'v1beta1';
  const kind = target === 'Table' ? 'Table' : endpoint.list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata';
  if (!codec.encodes({ apiVersion: `meta.k8s.io/${metaVersion}`, kind })) return undefined;
  return { codec, as: target, metaVersion, contentType: `${codec.mediaType};as=${as};v=${metaVersion};g=meta.k8s.io` };
}

const statusType: TypeMeta = Object.freeze({ apiVersion: 'v1', kind: 'Status' });

/**
 * The codec an error Status is written in, as kube's ErrorNegotiated picks it: the first codec Accept names that can
 * encode a v1 Status, with no conversion (a range asking for one is skipped). Undefined when there is none: kube then
 * writes the Status as raw JSON (that is how a 406 for `Accept: text/html` is answered).
 */
export function negotiateError(accept: string | undefined, codecs: CodecSet): Codec | undefined {
  if (isPlainJsonAccept(accept)) return codecs.json;
  for (const range of parseAccept(accept)) {
    const { as, g, v, stream, sv } = range.params;
    if (as !== undefined || g !== undefined || v !== undefined || sv) continue;
    for (const codec of codecs.all) {
      if (!matches(range, codec) || (stream && (stream !== 'watch' || !codec.stream))) continue;
      if (codec.encodes(statusType)) return codec;
    }
  }
  return undefined;
}
