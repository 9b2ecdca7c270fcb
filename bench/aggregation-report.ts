/** The aggregation group's lines and verdict (bench/aggregation.ts). */
import type { AggregationResults } from './aggregation.js';
import { targets } from './config.js';
import type { Figures } from './load.js';
import type { Verdict } from './report.js';

export const aggregationMethod =
  'Aggregation: a backend kapi serving widget w1 (SQLite) and a front kapi with an APIService for example.com/v1 routed to it through a ' +
  'Service and Endpoints (the machine\'s non-loopback address), caBundle verified, the front-proxy client certificate presented; both ' +
  'up throughout. GET of w1 with the admin token (32 connections, after a warm-up) straight at the backend, then through the front ' +
  '(authenticated and authorized there, then at the backend from the X-Remote-* headers): front req/s ÷ direct req/s, the median over ' +
  'that pair and four more short pairs measured back to back (the host\'s speed drifts; a pair shares it). Through the ' +
  'front, the server CPU is the front\'s and the backend\'s together; direct µs/req ÷ through-the-front µs/req is informational, ' +
  'as is the front\'s own CPU per proxied GET.';

export function aggregationVerdict(r: AggregationResults): Verdict {
  const min = targets.aggregationThroughFrontOverDirectMin;
  return { name: 'GET through the front / direct', value: r.ratio, target: min, unit: 'ratio', pass: r.ratio >= min };
}

export function formatAggregation(r: AggregationResults, line: (label: string, f: Figures) => string): string[] {
  return [
    '  aggregation — GET of one widget of an aggregated API server, straight at it and through a front kapi',
    line('direct to the backend', r.direct),
    line('through the front', r.throughFront), // server CPU: the front's and the backend's
    `  ratio: through the front / direct ${(100 * r.ratio).toFixed(1)}% (median of pairs: ${r.pairRatios.map((x) => (100 * x).toFixed(1)).join(', ')})` +
      (r.ratioByServerCpu !== undefined ? `; by server CPU per request (front + backend) ${(100 * r.ratioByServerCpu).toFixed(1)}% (informational)` : '') +
      (r.frontCpuMicrosPerOk !== undefined ? `; the front's own CPU ${r.frontCpuMicrosPerOk.toFixed(0)} µs per proxied GET` : ''),
  ];
}
