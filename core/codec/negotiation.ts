import { errors } from '../errors/api-error.js';

/** What a response should be: its wire format and which representation of the resource. */
export interface Negotiated {
  format: 'json' | 'yaml';
  /**
   * `object`: the resource as stored; `Table` / `PartialObjectMetadata`: meta.k8s.io conversions (a list answers
   * `PartialObjectMetadata` with a PartialObjectMetadataList; `as=PartialObjectMetadataList` negotiates to it too).
   */
  as: 'object' | 'Table' | 'PartialObjectMetadata';
  /** The meta.k8s.io version of a Table / PartialObjectMetadata (undefined for `object`). */
  metaVersion?: 'v1' | 'v1beta1';
  /** The Content-Type to answer with. */
  contentType: string;
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

/** The `as=` kinds kube converts resources to, and the representation each one answers with. */
const conversions: Record<string, Negotiated['as']> = {
  Table: 'Table',
  PartialObjectMetadata: 'PartialObjectMetadata',
  PartialObjectMetadataList: 'PartialObjectMetadata',
};
const plainJson: Negotiated = Object.freeze({ format: 'json', as: 'object', contentType: 'application/json' });
const metaVersions = new Set(['v1', 'v1beta1']);

/**
 * Picks the response representation from Accept, as kube-apiserver does for resource endpoints: the best media range
 * the server can satisfy wins, and one asking for a conversion the server cannot do (an unknown `as`, a group other
 * than meta.k8s.io, a version other than v1/v1beta1, or any conversion when `allowConversion` is false) is skipped.
 * Nothing acceptable is 406.
 */
export function negotiate(accept: string | undefined, allowConversion = true): Negotiated {
  if (!accept || accept === 'application/json' || accept === '*/*') return plainJson; // the common case, no parsing
  for (const r of parseAccept(accept)) {
    const format = formatOf(r.type);
    if (!format) continue;
    const mediaType = format === 'json' ? 'application/json' : 'application/yaml';
    const { as, g, v } = r.params;
    // kube treats any of as/g/v as a conversion request (e.g. `g=meta.k8s.io;v=v1` alone names no kind: skipped).
    if (as === undefined && g === undefined && v === undefined) return { format, as: 'object', contentType: mediaType };
    const target = as !== undefined && Object.hasOwn(conversions, as) ? conversions[as] : undefined;
    if (!allowConversion || !target || g !== 'meta.k8s.io' || !metaVersions.has(v ?? '')) continue;
    const metaVersion = v as 'v1' | 'v1beta1';
    return { format, as: target, metaVersion, contentType: `${mediaType};as=${as};v=${metaVersion};g=meta.k8s.io` };
  }
  throw errors.notAcceptable('only the following media types are accepted: application/json, application/yaml');
}

function formatOf(type: string): Negotiated['format'] | undefined {
  switch (type) {
    case 'application/json':
    case 'application/*':
    case '*/*':
      return 'json';
    case 'application/yaml':
      return 'yaml';
    default:
      return undefined;
  }
}
