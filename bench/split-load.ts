/**
 * One load split between several servers of the same kind at once (kapi instances on one etcd): the configured
 * connections shared out between them, each server's CPU time sampled at the measured window's ends as `measure`
 * samples one server's, and the completed operations and CPU added up.
 */
import type { BenchConfig } from './config.js';
import { machineCpuMs } from './environment.js';
import { startLoad, type LoadSpec } from './load.js';
import type { ServerProbe } from './server-process.js';

export interface SplitFigures {
  title: string;
  /** Responses with `okStatus` per second, all servers together. */
  reqPerSec: number;
  durationSeconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** The highest of the servers' latency percentiles. */
  latencyMs: { p50: number; p99: number };
  /** Per server, in the order given: its share of the completed operations per second and of one core. */
  servers: { reqPerSec: number; coreShare: number }[];
  /** All servers' CPU together. */
  serverCpu: { coreShare: number; microsPerOk: number };
  clientCoreShare: number;
  /** Cores' worth of CPU used by everything else on the machine (etcd among it). */
  otherCoreShare?: number;
}

/** Warm-up of every server, then the measured window; `specs[i]` (its `url` set) drives `servers[i]`. */
export async function measureSplit(title: string, specs: LoadSpec[], cfg: BenchConfig, servers: ServerProbe[]): Promise<SplitFigures> {
  const share: BenchConfig = { ...cfg, connections: Math.max(1, Math.floor(cfg.connections / specs.length)) };
  await Promise.all(specs.map((s) => startLoad(s, share, 'warmup', cfg.warmupSeconds).result));
  const cpuBefore = await Promise.all(servers.map((s) => s.cpuMicros()));
  const clientBefore = process.cpuUsage();
  const machineBefore = machineCpuMs();
  const results = await Promise.all(specs.map((s) => startLoad(s, share, 'measure', cfg.seconds).result));
  const machine = machineCpuMs().busy - machineBefore.busy;
  const client = process.cpuUsage(clientBefore);
  const cpuAfter = await Promise.all(servers.map((s) => s.cpuMicros()));

  const duration = Math.max(...results.map((r) => r.duration));
  const oks = results.map((r, i) => r.statusCodeStats?.[`${specs[i]!.okStatus}`]?.count ?? 0);
  const ok = oks.reduce((a, b) => a + b, 0);
  const cpu = cpuAfter.map((after, i) => after - cpuBefore[i]!);
  const serverMicros = cpu.reduce((a, b) => a + b, 0);
  const clientMicros = client.user + client.system;
  return {
    title,
    reqPerSec: ok / duration,
    durationSeconds: duration,
    ok,
    non2xx: results.reduce((a, r) => a + r.non2xx, 0),
    errors: results.reduce((a, r) => a + r.errors, 0),
    latencyMs: { p50: Math.max(...results.map((r) => r.latency.p50)), p99: Math.max(...results.map((r) => r.latency.p99)) },
    servers: results.map((r, i) => ({ reqPerSec: oks[i]! / r.duration, coreShare: cpu[i]! / 1e6 / r.duration })),
    serverCpu: { coreShare: serverMicros / 1e6 / duration, microsPerOk: ok ? serverMicros / ok : 0 },
    clientCoreShare: clientMicros / 1e6 / duration,
    otherCoreShare: Math.max(0, (machine * 1000 - serverMicros - clientMicros) / 1e6 / duration),
  };
}
