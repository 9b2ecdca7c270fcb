/** What every measurement of `npm run bench` shares: load shape, durations and the targets it is judged by. */
export interface BenchConfig {
  /** Concurrent keep-alive connections autocannon holds open. */
  connections: number;
  /** Length of each measurement, seconds (env BENCH_SECONDS; default 10). */
  seconds: number;
  /** Unmeasured load before each measurement so the server's JIT and caches are warm (env BENCH_WARMUP_SECONDS; default 2). */
  warmupSeconds: number;
  /** CPU-profile every server child over its measured window into bench/results/profiles (env BENCH_PROFILE=1). */
  profile: boolean;
}

/** The targets from the performance issue. */
export const targets = {
  /** kapi GET of one custom resource must reach this share of the bare-koa baseline's req/s. */
  getOverBaseline: 0.4,
  /** Durable creates (201s) per second. */
  createPerSecond: 1500,
  /** Ten x-kubernetes-validations rules may cost at most this share of create throughput (1 - ruled/plain creates/s). */
  celRulesCostMax: 0.25,
} as const;

export function benchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  return {
    connections: 32,
    seconds: positiveNumber(env['BENCH_SECONDS'], 10, 'BENCH_SECONDS'),
    warmupSeconds: positiveNumber(env['BENCH_WARMUP_SECONDS'], 2, 'BENCH_WARMUP_SECONDS'),
    profile: env['BENCH_PROFILE'] === '1' || env['BENCH_PROFILE'] === 'true',
  };
}

function positiveNumber(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds, got ${JSON.stringify(raw)}`);
  return n;
}
