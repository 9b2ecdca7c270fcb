import type { Context, Middleware } from 'koa';
import { performance } from 'node:perf_hooks';
import type { RequestInfo } from '../request/request-info.js';
import { isLongRunning } from '../request/long-running.js';
import { requestInfoOf, requestQueryOf } from '../server/request-info-state.js';
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
  const series = new RequestSeries(metrics);
  return async (ctx, next) => {
    const info = requestInfoOf(ctx);
    const started = performance.now();
    const longRunning = isLongRunning(info);
    const kind: RequestKind = readOnlyVerbs.has(info.verb) ? 'readOnly' : 'mutating';
    if (!longRunning) inflight.started(kind);
    let labels: RequestLabels | undefined;
    (ctx.state as { [servedKey]?: () => void })[servedKey] = () => {
      if (labels) return;
      labels = requestLabels(ctx, info);
      if (longRunning) series.longRunning(labels).inc();
    };
    try {
      await next();
    } finally {
      if (!longRunning) inflight.finished(kind);
      if (labels) {
        if (longRunning) series.longRunning(labels).dec();
        series.finished(labels, ctx.respond === false ? ctx.res.statusCode : ctx.status, (performance.now() - started) / 1000);
      }
    }
  };
}

interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

/** kube's labels: a non-resource request has only its path, as its subresource. */
function requestLabels(ctx: Context, info: RequestInfo): RequestLabels {
  const scope = reportedScope(info);
  const resource = info.isResourceRequest;
  return {
    verb: reportedVerb(ctx, info, scope),
    dry_run: reportedDryRun(requestQueryOf(ctx)),
    group: resource ? info.apiGroup : '',
    version: resource ? info.apiVersion : '',
    resource: resource ? info.resource : '',
    subresource: resource ? info.subresource : info.path,
    scope,
    component,
  };
}

/** The metrics' series per label set, kept by one string key: looked up once per request. */
class RequestSeries {
  private readonly done = new Map<string, { count: { inc(): void }; duration: { observe(seconds: number): void } }>();
  private readonly running = new Map<string, { inc(): void; dec(): void }>();

  constructor(private readonly metrics: ServerMetrics) {}

  finished(labels: RequestLabels, code: number, seconds: number): void {
    const series = `${seriesKey(labels)}|${labels.dry_run}`;
    const key = `${series}|${code}`;
    let s = this.done.get(key);
    if (!s) {
      const { requestTotal, requestDuration } = this.metrics;
      s = { count: requestTotal.child(key, { ...labels, code: String(code) }), duration: requestDuration.child(series, { ...labels }) };
      this.done.set(key, s);
    }
    s.count.inc();
    s.duration.observe(seconds);
  }

  longRunning(labels: RequestLabels): { inc(): void; dec(): void } {
    const key = seriesKey(labels);
    let g = this.running.get(key);
    if (!g) {
      const { dry_run: _, ...gaugeLabels } = labels;
      g = this.metrics.longRunningRequests.labels(gaugeLabels);
      this.running.set(key, g);
    }
    return g;
  }
}

function seriesKey(l: RequestLabels): string {
  return `${l.verb}|${l.group}|${l.version}|${l.resource}|${l.subresource}|${l.scope}`;
}
