/** The overload group's lines and verdicts (bench/overload.ts). */
import { targets } from './config.js';
import type { Latencies, OverloadResults, OverloadRun } from './overload.js';
import type { Verdict } from './report.js';

export const overloadMethod =
  'Overload: one kapi (SQLite) with two users in system:authenticated, both in the global-default priority level (one flow each). ' +
  'The noisy user\'s capacity for GET of widget w1 alone (closed loop, 32 connections, 3 s), then the noisy user at 10× that rate ' +
  '(256 connections, autocannon in a worker thread) while the quiet user GETs w1 and /healthz every 50 ms on connections of their ' +
  'own: the quiet GETs\' and the probes\' p99 must stay under 100 ms. The same run with --enable-priority-and-fairness=false ' +
  '(max-in-flight 400/200) for comparison (informational).';

export function overloadVerdicts(r: OverloadResults): Verdict[] {
  const max = targets.overloadQuietP99MsMax;
  const verdict = (name: string, l: Latencies): Verdict => ({ name, value: l.p99Ms, target: max, unit: 'ms', atMost: true, pass: l.p99Ms <= max && l.failures === 0 });
  return [verdict('overload: quiet tenant GET p99', r.apf.quiet), verdict('overload: /healthz p99', r.apf.healthz)];
}

export function formatOverload(r: OverloadResults): string[] {
  return ['  overload — a quiet tenant and /healthz while a noisy tenant sends 10× the capacity', ...formatRun(r.apf), ...formatRun(r.maxInFlight)];
}

function formatRun(run: OverloadRun): string[] {
  const latencies = (l: Latencies) => `p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms, max ${l.maxMs.toFixed(1)} ms, ${l.failures} failed of ${l.requests}`;
  const noisy = Object.entries(run.noisy).map(([code, n]) => `${code}: ${n}`).join(', ');
  return [
    `    ${run.mode}: capacity ${run.capacityReqPerSec.toFixed(0)} req/s, noisy offered ${run.offeredReqPerSec} req/s (${noisy})`,
    `      quiet GET ${latencies(run.quiet)}; /healthz ${latencies(run.healthz)}; served after: ${run.servedAfter}`,
  ];
}
