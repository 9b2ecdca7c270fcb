import { parseAccept } from '../codec/negotiation.js';
import type { AggregatedDiscoveryVersion } from './aggregated-discovery.js';

const aggregatedVersions = new Set<string>(['v2', 'v2beta1']);

/**
 * The apidiscovery.k8s.io version an Accept header asks /api and /apis for, or undefined for the legacy documents:
 * the first acceptable media range wins, as in kube-apiserver (aggregated discovery is served as JSON only here).
 */
export function aggregatedDiscoveryVersion(accept: string | undefined): AggregatedDiscoveryVersion | undefined {
  for (const range of parseAccept(accept)) {
    const { as, g, v } = range.params;
    if (as === undefined) return undefined;
    if (range.type === 'application/json' && as === 'APIGroupDiscoveryList' && g === 'apidiscovery.k8s.io' && v && aggregatedVersions.has(v)) {
      return v as AggregatedDiscoveryVersion;
    }
  }
  return undefined;
}
