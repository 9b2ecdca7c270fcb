/**
 * wrk (Debian package `wrk`) as the load generator of GET measurements: C with epoll in a process of its own, so on a
 * 2-core machine it leaves the server a core (pinned apart with taskset when it can be) and is not itself the limit,
 * which autocannon in the bench's Node process is near 50k req/s. `wrk -t1 -c<connections> -d<seconds>s --latency`,
 * the spec's headers; its report is read by bench/wrk-output.ts and its CPU time taken from the kernel's account of
 * this process's exited children. GETs only: the create measurements keep autocannon (bodies built per request).
 */
import { spawn } from 'node:child_process';
import { commandOnPath } from './command-on-path.js';
import type { BenchConfig } from './config.js';
import { chooseCpuPinning, type CpuPinning } from './cpu-pinning.js';
import { autocannonGenerator, type LoadGenerator, type LoadRun, type LoadSpec } from './load.js';
import { exitedChildrenCpuMicros } from './process-cpu.js';
import { parseWrkReport } from './wrk-output.js';

/**
 * The GET measurements' load generator: wrk, pinned apart from the server when two CPUs and taskset are there (the
 * caller pins the server to `cpuPinning.server`); without wrk, autocannon in this process, with a note on stderr.
 */
export async function getLoadGenerator(log: (msg: string) => void): Promise<LoadGenerator> {
  if (!(await commandOnPath('wrk'))) {
    log('NOTE: wrk is not on PATH (Debian: apt-get install wrk): GET and baseline are measured with autocannon in this process, which may be the limit; the GET / baseline verdict needs wrk');
    return autocannonGenerator;
  }
  const pinning = await chooseCpuPinning();
  log(pinning ? `GET load: wrk on CPU ${pinning.loadGenerator}, the server on CPU ${pinning.server}` : 'GET load: wrk, unpinned (taskset missing or fewer than 2 CPUs)');
  return wrkGenerator(pinning);
}

/** wrk as a LoadGenerator; with `pinning`, wrk runs on `pinning.loadGenerator` (the caller pins the server). */
export function wrkGenerator(pinning?: CpuPinning): LoadGenerator {
  return {
    name: 'wrk',
    ...(pinning ? { cpuPinning: pinning } : {}),
    run: (spec, cfg, _phase, seconds) => runWrk(spec, cfg, seconds, pinning),
  };
}

async function runWrk(spec: LoadSpec, cfg: BenchConfig, seconds: number, pinning: CpuPinning | undefined): Promise<LoadRun> {
  if ((spec.method ?? 'GET') !== 'GET' || spec.body) throw new Error(`${spec.title}: the wrk load generator sends GETs only`);
  const wrkArgs = [
    '-t1',
    `-c${cfg.connections}`,
    // wrk counts whole seconds.
    `-d${Math.max(1, Math.round(seconds))}s`,
    '--latency',
    ...Object.entries(spec.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    new URL(spec.path, spec.url).href,
  ];
  const [command, args] = pinning ? ['taskset', ['--cpu-list', String(pinning.loadGenerator), 'wrk', ...wrkArgs]] : ['wrk', wrkArgs];
  const cpuBefore = await exitedChildrenCpuMicros();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${spec.title}: wrk exited with ${code}: ${(err || out).trim().slice(0, 500)}`))));
  });
  const cpuAfter = await exitedChildrenCpuMicros();
  const r = parseWrkReport(output);
  const ok = r.requests - r.non2xxOr3xx;
  return {
    title: spec.title,
    loadGenerator: 'wrk',
    // requests ÷ wrk's own run time, scaled to the responses that count.
    reqPerSec: r.requests ? (r.requestsPerSec * ok) / r.requests : 0,
    latencyMs: r.latencyMs,
    durationSeconds: r.durationSeconds,
    okStatus: spec.okStatus,
    ok,
    total: r.requests,
    non2xx: r.non2xxOr3xx,
    errors: r.socketErrors.connect + r.socketErrors.read + r.socketErrors.write,
    timeouts: r.socketErrors.timeout,
    statusCodes: {},
    clientCpuMicros: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : Number.NaN,
  };
}
