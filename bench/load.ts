/** One measurement: an unmeasured warm-up, then autocannon for the configured time, reduced to the figures we report. */
import autocannon from 'autocannon';
import type { BenchConfig } from './config.js';

export interface LoadSpec {
  title: string;
  url: string;
  /** The status that counts as a completed operation (200 for GET, 201 for create). */
  okStatus: number;
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** Per-request body factory (create); `phase` keeps warm-up names apart from measured ones. */
  body?: (phase: 'warmup' | 'measure', seq: number) => string;
}

export interface Figures {
  title: string;
  /** Responses with `okStatus` per second over the measured duration. */
  reqPerSec: number;
  /** autocannon's own mean of per-second samples (all responses, any status). */
  autocannonReqPerSecMean: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  durationSeconds: number;
  okStatus: number;
  ok: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export async function measure(spec: LoadSpec, cfg: BenchConfig): Promise<Figures> {
  await run(spec, cfg, 'warmup', cfg.warmupSeconds);
  const r = await run(spec, cfg, 'measure', cfg.seconds);
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count ?? 0;
  const ok = statusCodes[String(spec.okStatus)] ?? 0;
  return {
    title: spec.title,
    reqPerSec: ok / r.duration,
    autocannonReqPerSecMean: r.requests.mean,
    latencyMs: { mean: r.latency.mean, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    durationSeconds: r.duration,
    okStatus: spec.okStatus,
    ok,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}

function run(spec: LoadSpec, cfg: BenchConfig, phase: 'warmup' | 'measure', seconds: number): Promise<autocannon.Result> {
  let seq = 0;
  const body = spec.body;
  const request: autocannon.Request = { method: spec.method ?? 'GET', path: spec.path, headers: spec.headers };
  if (body) request.setupRequest = (req) => ({ ...req, body: body(phase, seq++) });
  return autocannon({
    title: `${spec.title} (${phase})`,
    url: spec.url,
    connections: cfg.connections,
    pipelining: 1,
    duration: seconds,
    requests: [request],
    // Every status is kept in the latency figures; non-2xx are reported separately.
  });
}
