import type { RouteContext } from '../contracts/route.js';
import type { AggregatedDiscoveryVersion } from './aggregated-discovery.js';
import { aggregatedContentType } from './aggregated-discovery.js';
import { ifNoneMatch } from '../../lib/k8s/content-hash.js';
import type { AggregatedDocument } from './discovery-documents.js';

/** Answers with an aggregated discovery document as kube does: ETag, Vary and Cache-Control, 304 when the client has it. */
export function respondAggregated(ctx: RouteContext, doc: AggregatedDocument, version: AggregatedDiscoveryVersion): void {
  const etag = `"${doc.hash}"`;
  ctx.set('ETag', etag);
  ctx.set('Vary', 'Accept');
  ctx.set('Cache-Control', 'public');
  if (ifNoneMatch(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.set('Content-Type', aggregatedContentType(version));
  ctx.body = doc.body[version];
}
