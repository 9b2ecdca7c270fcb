/**
 * The overload group: what priority and fairness buys a quiet tenant when a noisy one asks for ten times what the
 * server can do. One kapi process (SQLite, AlwaysAllow) with two users in system:authenticated: both land in the
 * suggested `global-default` priority level (ByUser: one flow each). First the server's capacity for GET of widget w1
 * is measured with the noisy user alone (closed loop, 32 connections); then the noisy user sends GETs at 10× that rate
 * (256 connections, autocannon in a worker thread) while the quiet user GETs w1 and /healthz every 50 ms, each on its
 * own connection from this process, answer by answer. Reported: the noisy user's answers by status, and the quiet
 * user's and the probes' latency (p50, p99, max) and failures; then that the server still answers. With
 * `--enable-priority-and-fairness=false` (max-in-flight) the same run is made for comparison.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { BenchContext } from './context.js';
import { httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { startLoad } from './load.js';
import { withServer } from './server-process.js';
import { createWidgetW1, installWidgetsCrd, waitForWidgetsServed, widgetPath } from './widgets.js';

export interface Latencies {
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface OverloadRun {
  mode: 'priority-and-fairness' | 'max-in-flight';
  /** GETs/s the noisy user got answered 200 alone, closed loop. */
  capacityReqPerSec: number;
  /** The rate the noisy user then sent at (10× capacity). */
  offeredReqPerSec: number;
  /** The noisy user's answers during the overload, by status ("errors": no answer). */
  noisy: Record<string, number>;
  quiet: Latencies;
  healthz: Latencies;
  /** Whether the server answered the admin's GET after the overload. */
  servedAfter: boolean;
}

export interface OverloadResults {
  apf: OverloadRun;
  maxInFlight: OverloadRun;
}

const noisy = { token: 'bench-noisy-token', user: { username: 'noisy', groups: ['system:authenticated'] } };
const quiet = { token: 'bench-quiet-token', user: { username: 'quiet', groups: ['system:authenticated'] } };
const probeEveryMs = 50;
const capacitySeconds = 3;

export async function runOverload(ctx: BenchContext): Promise<OverloadResults> {
  const apf = await overloadRun(ctx, true);
  const maxInFlight = await overloadRun(ctx, false);
  return { apf, maxInFlight };
}

async function overloadRun(ctx: BenchContext, enablePriorityAndFairness: boolean): Promise<OverloadRun> {
  const mode = enablePriorityAndFairness ? 'priority-and-fairness' : 'max-in-flight';
  const dataDir = join(ctx.root, `overload-${mode}`);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const settings: KapiServerSettings = { dataDir, pkiDir: ctx.pkiDir, token: ctx.token, users: [noisy, quiet], enablePriorityAndFairness };
  return withServer('./kapi-server.js', settings, async (url) => {
    const admin = httpsClient(url, ctx.caCertPem, ctx.token);
    await installWidgetsCrd(admin);
    await waitForWidgetsServed(admin);
    await createWidgetW1(admin);
    const noisyHeaders = { authorization: `Bearer ${noisy.token}`, accept: 'application/json' };
    ctx.log(`overload (${mode}): the noisy user's capacity alone`);
    const alone = await startLoad({ title: 'noisy alone', url, okStatus: 200, path: widgetPath, headers: noisyHeaders }, ctx.cfg, 'measure', capacitySeconds).result;
    const capacityReqPerSec = (alone.statusCodeStats?.['200']?.count ?? 0) / alone.duration;
    const offeredReqPerSec = Math.round(10 * capacityReqPerSec);
    ctx.log(`overload (${mode}): noisy at ${offeredReqPerSec} req/s for ${ctx.cfg.seconds} s; quiet GETs and /healthz every ${probeEveryMs} ms`);
    const flood = new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        {
          url,
          connections: 256,
          overallRate: offeredReqPerSec,
          workers: 1,
          duration: ctx.cfg.seconds,
          requests: [{ method: 'GET', path: widgetPath, headers: noisyHeaders }],
        },
        (err: unknown, r: autocannon.Result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r)),
      ),
    );
    const probing = { done: false };
    const quietClient = httpsClient(url, ctx.caCertPem, quiet.token, 1);
    const probeClient = httpsClient(url, ctx.caCertPem, quiet.token, 1);
    const [result, quietLatencies, healthzLatencies] = await Promise.all([
      flood.finally(() => (probing.done = true)),
      probe(quietClient, widgetPath, probing),
      probe(probeClient, '/healthz', probing),
    ]);
    quietClient.close();
    probeClient.close();
    const noisyAnswers: Record<string, number> = {};
    for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) noisyAnswers[code] = s.count ?? 0;
    if (result.errors) noisyAnswers['errors'] = result.errors;
    const after = await admin.request('GET', widgetPath);
    admin.close();
    return { mode, capacityReqPerSec, offeredReqPerSec, noisy: noisyAnswers, quiet: quietLatencies, healthz: healthzLatencies, servedAfter: after.status === 200 };
  });
}

/** GETs `path` every `probeEveryMs` (the next once the previous is answered) until `state.done`; their latencies. */
async function probe(client: HttpsClient, path: string, state: { done: boolean }): Promise<Latencies> {
  const times: number[] = [];
  let failures = 0;
  while (!state.done) {
    const started = performance.now();
    try {
      const res = await client.request('GET', path);
      if (res.status !== 200) failures++;
    } catch {
      failures++;
    }
    const ms = performance.now() - started;
    times.push(ms);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, probeEveryMs - ms)));
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { requests: times.length, failures, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: times[times.length - 1] ?? 0 };
}
