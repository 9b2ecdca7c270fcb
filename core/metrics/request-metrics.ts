import type { Context, Middleware } from 'koa';
import { performance } from 'node:perf_hooks';
import type { RequestInfo } from '../request/request-info.js';
import { isLongRunning } from '../request/long-running.js';
import { requestInfoOf } from '../server/request-info-state.js';
import type { ServerMetrics } from './server-metrics.js';
import { InflightRequests, type RequestKind } from './inflight-requests.js';
import { reportedDryRun, reportedScope, reportedVerb } from './request-labels.js';

const servedKey = Symbol('kapi.metrics.served');
const component = 'apiserver';
const readOnlyVerbs = new Set(['get', 'list', 'watch']);

/**
 * Marks the request as reaching a handler: a served resource type, a route or the aggregation proxy. Only such
 * requests are counted, as kube instruments its handlers and not its filters (a 401, 403 or unknown path is not
 * counted) — which also keeps labels taken from the URL to the paths the server serves.
 */
export function markServed(ctx: Context): void {
  (ctx.state as { [servedKey]?: () => void })[servedKey]?.();
}

/**
 * The filter that counts requests: apiserver_request_total and apiserver_request_duration_seconds with the final
 * status code, apiserver_longrunning_requests while a served long-running request lasts, and
 * apiserver_current_inflight_requests.
 */
export function instrumentRequests(metrics: ServerMetrics): Middleware {
  const inflight = new InflightRequests(metrics.registry);
  return async (ctx, next) => {
    const info = requestInfoOf(ctx);
    const started = performance.now();
    const longRunning = isLongRunning(info);
    const kind: RequestKind = readOnlyVerbs.has(info.verb) ? 'readOnly' : 'mutating';
    if (!longRunning) inflight.started(kind);
    let labels: Record<string, string> | undefined;
    (ctx.state as { [servedKey]?: () => void })[servedKey] = () => {
      if (labels) return;
      labels = requestLabels(ctx, info);
      if (longRunning) metrics.longRunningRequests.inc(longRunningLabels(labels));
    };
    try {
      await next();
    } finally {
      if (!longRunning) inflight.finished(kind);
      if (labels) {
        if (longRunning) metrics.longRunningRequests.dec(longRunningLabels(labels));
        const code = String(ctx.respond === false ? ctx.res.statusCode : ctx.status);
        metrics.requestTotal.inc({ ...labels, code });
        metrics.requestDuration.observe(labels, (performance.now() - started) / 1000);
      }
    }
  };
}

/** kube's labels: a non-resource request has only its path, as its subresource. */
function requestLabels(ctx: Context, info: RequestInfo): Record<string, string> {
  const scope = reportedScope(info);
  const resource = info.isResourceRequest;
  return {
    verb: reportedVerb(ctx, info, scope),
    dry_run: reportedDryRun(new URLSearchParams(ctx.querystring)),
    group: resource ? info.apiGroup : '',
    version: resource ? info.apiVersion : '',
    resource: resource ? info.resource : '',
    subresource: resource ? info.subresource : info.path,
    scope,
    component,
  };
}

function longRunningLabels({ dry_run: _, ...labels }: Record<string, string>): Record<string, string> {
  return labels;
}
