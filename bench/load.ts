/**
 * One measurement: an unmeasured warm-up, then a load generator (autocannon in this process, or wrk: bench/wrk.ts) for
 * the configured time, reduced to the figures we report.
 */
import autocannon from 'autocannon';
import type { BenchConfig } from './config.js';
import { machineCpuMs } from './environment.js';
import type { ServerProbe } from './server-process.js';

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
  /** What drove the load: autocannon in the bench's own process, or wrk in a process of its own. */
  loadGenerator: LoadGenerator['name'];
  /** Responses with `okStatus` per second over the measured duration. */
  reqPerSec: number;
  /** autocannon's own mean of per-second samples (all responses, any status); autocannon only. */
  autocannonReqPerSecMean?: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  durationSeconds: number;
  okStatus: number;
  /** Responses with `okStatus`; wrk tells only 2xx/3xx from the rest, so with wrk: every 2xx/3xx response. */
  ok: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Responses per status code (autocannon only: wrk does not count them; empty then). */
  statusCodes: Record<string, number>;
  /** The server process's CPU time (user + system) during the measurement, when it could be asked. */
  serverCpu?: {
    /** Share of one core the server used: near 100% means it is CPU-bound, well below means it waits (fsync, client). */
    coreShare: number;
    /** CPU microseconds per completed operation: less sensitive to a busy machine than req/s. */
    microsPerOk: number;
  };
  /** Share of one core the load generator used: near 100% means the load generator, not the server, is the limit. */
  clientCoreShare: number;
  /** Where the server and the load generator were pinned (`taskset`), when they were. */
  cpuPinning?: { server: number; loadGenerator: number };
  /**
   * Cores' worth of CPU used by everything else on the machine during the measurement (machine busy time minus server
   * and client): well above 0 means other work competed with this measurement. Only known with `server`.
   */
  otherCoreShare?: number;
  /** Measured in alternating windows (measureAlternating): each window's rate of `okStatus` responses, in order. */
  windowReqPerSec?: number[];
}

/** What a load generator reports of one run: the figures but the CPU shares, and the CPU time it used itself. */
export type LoadRun = Omit<Figures, 'serverCpu' | 'clientCoreShare' | 'otherCoreShare' | 'cpuPinning' | 'windowReqPerSec'> & { clientCpuMicros: number };

/** Drives `spec` for `seconds` and reports what it saw. */
export interface LoadGenerator {
  name: 'autocannon' | 'wrk';
  run(spec: LoadSpec, cfg: BenchConfig, phase: 'warmup' | 'measure', seconds: number): Promise<LoadRun>;
  /** Set when the generator and the server run pinned to different CPUs. */
  cpuPinning?: Figures['cpuPinning'];
}

/**
 * Warm-up, then the measurement. With `server`, the server's CPU time over the measured window is recorded, and with
 * `profilePath` that window (only) is CPU-profiled into it.
 */
export async function measure(
  spec: LoadSpec,
  cfg: BenchConfig,
  server?: ServerProbe,
  profilePath?: string,
  generator: LoadGenerator = autocannonGenerator,
): Promise<Figures> {
  await generator.run(spec, cfg, 'warmup', cfg.warmupSeconds);
  if (profilePath) await server?.startProfile();
  const window = await measureWindow(spec, cfg, cfg.seconds, server, generator);
  if (profilePath) await server?.stopProfile(profilePath);
  return figuresOf([window], generator);
}

/** One of the loads `measureAlternating` takes turns with: its server (probed for CPU time) and optional profile. */
export interface AlternatingLoad {
  spec: LoadSpec;
  server: ServerProbe;
  profilePath?: string;
}

/**
 * Two or more loads, each warmed up once, then measured in `rounds` short windows taken in turn (A B A B …), of the
 * configured time ÷ `rounds` each (wrk: whole seconds): this machine's speed drifts by up to 2× within minutes, so loads measured one after the
 * other can differ by the drift alone; in turns, each window of one has a neighbour of the other. Each load's figures
 * sum its windows (latencies: those of its median window) and list the windows' rates (`windowReqPerSec`), so that a
 * ratio can be taken window by window. A profile covers all of its load's windows.
 */
export async function measureAlternating(loads: AlternatingLoad[], cfg: BenchConfig, rounds: number, generator: LoadGenerator): Promise<Figures[]> {
  for (const l of loads) await generator.run(l.spec, cfg, 'warmup', cfg.warmupSeconds);
  for (const l of loads) if (l.profilePath) await l.server.startProfile();
  const windows: MeasuredWindow[][] = loads.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < loads.length; i++) windows[i]!.push(await measureWindow(loads[i]!.spec, cfg, cfg.seconds / rounds, loads[i]!.server, generator));
  }
  for (const l of loads) if (l.profilePath) await l.server.stopProfile(l.profilePath);
  return windows.map((w) => figuresOf(w, generator));
}

/** A load generator's run, with the CPU time of the server and of the machine over it. */
interface MeasuredWindow {
  run: LoadRun;
  serverCpuMicros?: number;
  machineBusyMs: number;
}

async function measureWindow(spec: LoadSpec, cfg: BenchConfig, seconds: number, server: ServerProbe | undefined, generator: LoadGenerator): Promise<MeasuredWindow> {
  const cpuBefore = await server?.cpuMicros();
  const machineBefore = machineCpuMs();
  const run = await generator.run(spec, cfg, 'measure', seconds);
  const machineBusyMs = machineCpuMs().busy - machineBefore.busy;
  const cpuAfter = await server?.cpuMicros();
  return { run, machineBusyMs, ...(cpuBefore !== undefined && cpuAfter !== undefined ? { serverCpuMicros: cpuAfter - cpuBefore } : {}) };
}

/** One window's figures, or several windows' summed (latencies and autocannon's mean: those of the median window by rate). */
function figuresOf(windows: MeasuredWindow[], generator: LoadGenerator): Figures {
  const sum = (f: (w: MeasuredWindow) => number) => windows.reduce((a, w) => a + f(w), 0);
  const byRate = [...windows].sort((a, b) => a.run.reqPerSec - b.run.reqPerSec);
  const { clientCpuMicros: _, ...median } = byRate[Math.floor((byRate.length - 1) / 2)]!.run;
  const durationSeconds = sum((w) => w.run.durationSeconds);
  const ok = sum((w) => w.run.ok);
  const statusCodes: Record<string, number> = {};
  for (const w of windows) for (const [code, n] of Object.entries(w.run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const clientCpuMicros = sum((w) => w.run.clientCpuMicros);
  const serverCpuMicros = windows.every((w) => w.serverCpuMicros !== undefined) ? sum((w) => w.serverCpuMicros!) : undefined;
  return {
    ...median,
    reqPerSec: ok / durationSeconds,
    durationSeconds,
    ok,
    total: sum((w) => w.run.total),
    non2xx: sum((w) => w.run.non2xx),
    errors: sum((w) => w.run.errors),
    timeouts: sum((w) => w.run.timeouts),
    statusCodes,
    ...(windows.length > 1 ? { windowReqPerSec: windows.map((w) => w.run.reqPerSec) } : {}),
    ...(serverCpuMicros !== undefined
      ? {
          serverCpu: { coreShare: serverCpuMicros / 1e6 / durationSeconds, microsPerOk: ok ? serverCpuMicros / ok : 0 },
          otherCoreShare: Math.max(0, (sum((w) => w.machineBusyMs) * 1000 - serverCpuMicros - clientCpuMicros) / 1e6 / durationSeconds),
        }
      : {}),
    clientCoreShare: clientCpuMicros / 1e6 / durationSeconds,
    ...(generator.cpuPinning ? { cpuPinning: generator.cpuPinning } : {}),
  };
}

/** autocannon in this process: its CPU time is this process's. */
export const autocannonGenerator: LoadGenerator = {
  name: 'autocannon',
  async run(spec, cfg, phase, seconds) {
    const clientBefore = process.cpuUsage();
    const r = await startLoad(spec, cfg, phase, seconds).result;
    const client = process.cpuUsage(clientBefore);
    const statusCodes: Record<string, number> = {};
    for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count ?? 0;
    const ok = statusCodes[String(spec.okStatus)] ?? 0;
    return {
      title: spec.title,
      loadGenerator: 'autocannon',
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
      clientCpuMicros: client.user + client.system,
    };
  },
};

/** A running load: `stop()` ends it early; `result` settles when it has ended. */
export interface RunningLoad {
  instance: autocannon.Instance;
  result: Promise<autocannon.Result>;
}

/** Starts autocannon on `spec` for `seconds` (listen to `instance`'s 'response' events to see each answer as it comes). */
export function startLoad(spec: LoadSpec, cfg: BenchConfig, phase: 'warmup' | 'measure', seconds: number): RunningLoad {
  let seq = 0;
  const body = spec.body;
  const request: autocannon.Request = { method: spec.method ?? 'GET', path: spec.path, headers: spec.headers };
  if (body) request.setupRequest = (req) => ({ ...req, body: body(phase, seq++) });
  let instance!: autocannon.Instance;
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        title: `${spec.title} (${phase})`,
        url: spec.url,
        connections: cfg.connections,
        pipelining: 1,
        duration: seconds,
        requests: [request],
        // Every status is kept in the latency figures; non-2xx are reported separately.
      },
      (err: unknown, r: autocannon.Result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r)),
    );
  });
  return { instance, result };
}
