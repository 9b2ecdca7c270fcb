import { performance } from 'node:perf_hooks';
import { expectStatus, type HttpsClient } from './https-client.js';

export interface SequentialLatency {
  requests: number;
  /** Microsecond-resolution percentiles (autocannon's histogram counts whole milliseconds). */
  latencyMs: { p50: number; p90: number; p99: number };
}

/**
 * One request at a time over one keep-alive connection: `warmup` unmeasured, then `requests` timed from send to the
 * last byte of the answer. What a single client waits per request, where a webhook's added latency shows.
 */
export async function sequentialLatency(
  client: HttpsClient,
  request: (seq: number) => { method: string; path: string; body: unknown; okStatus: number },
  requests: number,
  warmup: number,
): Promise<SequentialLatency> {
  const times: number[] = [];
  for (let i = 0; i < warmup + requests; i++) {
    const r = request(i);
    const start = performance.now();
    const res = await client.request(r.method, r.path, r.body);
    const elapsed = performance.now() - start;
    expectStatus(res, [r.okStatus], `${r.method} ${r.path}`);
    if (i >= warmup) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { requests, latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99) } };
}
