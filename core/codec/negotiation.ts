import { errors } from '../errors/api-error.js';

/** What a response should be: its wire format and which representation of the resource. */
export interface Negotiated {
  format: 'json' | 'yaml';
  /** `object`: the resource as stored; `Table` / `PartialObjectMetadata`: meta.k8s.io/v1 conversions. */
  as: 'object' | 'Table' | 'PartialObjectMetadata';
  /** The Content-Type to answer with. */
  contentType: string;
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [{ type: '*/*', params: {}, q: 1 }];
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [type, ...rawParams] = part.split(';').map((s) => s.trim());
    if (!type) continue;
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
  // Stable sort by q: equal q keeps the client's order.
  return ranges.map((r, i) => ({ r, i })).sort((a, b) => b.r.q - a.r.q || a.i - b.i).map((x) => x.r);
}

const conversions = new Set(['Table', 'PartialObjectMetadata']);
const plainJson: Negotiated = Object.freeze({ format: 'json', as: 'object', contentType: 'application/json' });
const metaVersions = new Set(['v1', 'v1beta1']);

/**
 * Picks the response representation from Accept, as kube-apiserver does for resource endpoints. `allowConversion`
 * is false for endpoints that cannot render Tables (e.g. watch of a single object is still allowed by kube).
 */
export function negotiate(accept: string | undefined, allowConversion = true): Negotiated {
  if (!accept || accept === 'application/json' || accept === '*/*') return plainJson; // the common case, no parsing
  for (const r of parseAccept(accept)) {
    const format = formatOf(r.type);
    if (!format) continue;
    const as = r.params['as'];
    if (as) {
      if (!allowConversion || !conversions.has(as) || r.params['g'] !== 'meta.k8s.io' || !metaVersions.has(r.params['v'] ?? '')) continue;
      return { format, as: as as Negotiated['as'], contentType: `${format === 'json' ? 'application/json' : 'application/yaml'};as=${as};g=meta.k8s.io;v=${r.params['v']}` };
    }
    return { format, as: 'object', contentType: format === 'json' ? 'application/json' : 'application/yaml' };
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
