/**
 * The etcd baseline: puts and gets straight through the etcd3 client, from this process, `concurrency` loops each
 * sending its next request when the previous one is answered — the same concurrency as autocannon's connections.
 */
import { performance } from 'node:perf_hooks';
import { noop } from 'cockatiel';
import { Etcd3 } from 'etcd3';
import { machineCpuMs } from './environment.js';

export interface RawFigures {
  title: string;
  opsPerSec: number;
  ops: number;
  errors: number;
  durationSeconds: number;
  latencyMs: { p50: number; p99: number };
  /** Share of one core this process (the etcd3 client) used. */
  clientCoreShare: number;
  /** Share of one core the etcd server used (when `serverCpuMicros` was given and could be read). */
  serverCoreShare?: number;
  /** Cores' worth of CPU the whole machine was busy with. */
  machineCoreShare: number;
}

/**
 * The etcd3 client the baseline runs on, with its retry and circuit-breaker policies off (they cost time per call and
 * never fire on a healthy local etcd) and gRPC's receive limit lifted as kapi's own client has it.
 */
export function rawEtcdClient(endpoints: string[]): Etcd3 {
  return new Etcd3({
    hosts: endpoints,
    faultHandling: { global: noop, host: () => noop },
    grpcOptions: { 'grpc.max_receive_message_length': -1 },
  });
}

export type RawOp = (client: Etcd3, seq: number) => Promise<unknown>;

/** Unmeasured warm-up, then `seconds` of `op` on `concurrency` loops. */
export async function rawLoad(
  title: string,
  client: Etcd3,
  op: RawOp,
  concurrency: number,
  seconds: number,
  warmupSeconds: number,
  serverCpuMicros?: () => Promise<number | undefined>,
): Promise<RawFigures> {
  let seq = 0;
  await loops(client, op, concurrency, warmupSeconds, () => seq++);
  const serverBefore = await serverCpuMicros?.();
  const cpuBefore = process.cpuUsage();
  const machineBefore = machineCpuMs().busy;
  const started = performance.now();
  const r = await loops(client, op, concurrency, seconds, () => seq++);
  const durationSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const machineMs = machineCpuMs().busy - machineBefore;
  const serverAfter = await serverCpuMicros?.();
  r.times.sort((a, b) => a - b);
  const at = (q: number) => r.times[Math.min(r.times.length - 1, Math.floor(q * r.times.length))] ?? 0;
  return {
    title,
    opsPerSec: r.times.length / durationSeconds,
    ops: r.times.length,
    errors: r.errors,
    durationSeconds,
    latencyMs: { p50: at(0.5), p99: at(0.99) },
    clientCoreShare: (cpu.user + cpu.system) / 1e6 / durationSeconds,
    machineCoreShare: machineMs / 1000 / durationSeconds,
    ...(serverBefore !== undefined && serverAfter !== undefined ? { serverCoreShare: (serverAfter - serverBefore) / 1e6 / durationSeconds } : {}),
  };
}

async function loops(client: Etcd3, op: RawOp, concurrency: number, seconds: number, next: () => number) {
  const end = performance.now() + seconds * 1000;
  const times: number[] = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        try {
          await op(client, next());
          times.push(performance.now() - start);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { times, errors };
}
