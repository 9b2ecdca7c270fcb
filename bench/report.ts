/** Turns the measurements into the verdicts against the issue's targets, prints them and saves them as JSON. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { targets, type BenchConfig } from './config.js';
import type { Environment } from './environment.js';
import type { Figures } from './load.js';

export interface Verdict {
  name: string;
  value: number;
  target: number;
  /** How `value` is expressed (ratio of baseline, or operations per second). */
  unit: 'ratio' | 'req/s';
  /** Set when `target` is a ceiling (`value` must be ≤ it); otherwise it is a floor. */
  atMost?: true;
  pass: boolean;
}

export interface BenchResults {
  finishedAt: string;
  config: BenchConfig;
  environment: Environment;
  /** How the servers were run, so the figures can be compared run to run. */
  method: string;
  figures: {
    baseline: Figures;
    get: Figures;
    create: Figures;
    /** Creates of the CRD without rules and of the same CRD with ten x-kubernetes-validations rules. */
    createPlain: Figures;
    createRuled: Figures;
  };
  ratios: {
    getOverBaseline: number;
    createOverBaseline: number;
    /** Baseline server CPU per request ÷ kapi GET server CPU per request: the same comparison, insensitive to a busy machine. */
    getOverBaselineByServerCpu?: number;
    /** Creates/s with the ten CEL rules ÷ creates/s without. */
    celRuledOverPlain: number;
    /** Share of create throughput the rules cost: 1 - celRuledOverPlain. */
    celRulesCost: number;
    /**
     * The rules' cost by server CPU per create, 1 - plain µs/create ÷ ruled µs/create: what the cost would be for a
     * CPU-bound server, insensitive to a busy machine (informational).
     */
    celRulesCostByServerCpu?: number;
    /** Extra server CPU per create the rules cost, µs (ruled - plain; informational). */
    celRulesMicrosPerCreate?: number;
  };
  verdicts: Verdict[];
}

export const method =
  'Each server runs alone in its own Node child process (forked, one at a time) over HTTPS on 127.0.0.1 with the same ensurePki serving ' +
  'certificate; autocannon runs in the parent process, 32 keep-alive connections, no pipelining, a warm-up before each measurement. ' +
  'req/s counts only the expected status (200 for GET, 201 for create) over the measured duration. ' +
  'The CEL phases create objects of two CRDs identical but for ten x-kubernetes-validations rules, each in a fresh data dir set up alike.';

export function buildResults(cfg: BenchConfig, environment: Environment, figures: BenchResults['figures']): BenchResults {
  const getOverBaseline = figures.get.reqPerSec / figures.baseline.reqPerSec;
  const createOverBaseline = figures.create.reqPerSec / figures.baseline.reqPerSec;
  const b = figures.baseline.serverCpu;
  const g = figures.get.serverCpu;
  const getOverBaselineByServerCpu = b && g && g.microsPerOk > 0 ? b.microsPerOk / g.microsPerOk : undefined;
  const celRuledOverPlain = figures.createRuled.reqPerSec / figures.createPlain.reqPerSec;
  const celRulesCost = 1 - celRuledOverPlain;
  const p = figures.createPlain.serverCpu;
  const r = figures.createRuled.serverCpu;
  const cpuKnown = p && r && p.microsPerOk > 0 && r.microsPerOk > 0;
  const celRulesCostByServerCpu = cpuKnown ? 1 - p.microsPerOk / r.microsPerOk : undefined;
  const celRulesMicrosPerCreate = cpuKnown ? r.microsPerOk - p.microsPerOk : undefined;
  return {
    finishedAt: new Date().toISOString(),
    config: cfg,
    environment,
    method,
    figures,
    ratios: {
      getOverBaseline,
      createOverBaseline,
      ...(getOverBaselineByServerCpu !== undefined ? { getOverBaselineByServerCpu } : {}),
      celRuledOverPlain,
      celRulesCost,
      ...(celRulesCostByServerCpu !== undefined ? { celRulesCostByServerCpu } : {}),
      ...(celRulesMicrosPerCreate !== undefined ? { celRulesMicrosPerCreate } : {}),
    },
    verdicts: [
      { name: 'GET / baseline', value: getOverBaseline, target: targets.getOverBaseline, unit: 'ratio', pass: getOverBaseline >= targets.getOverBaseline },
      { name: 'create req/s', value: figures.create.reqPerSec, target: targets.createPerSecond, unit: 'req/s', pass: figures.create.reqPerSec >= targets.createPerSecond },
      { name: 'rules cost', value: celRulesCost, target: targets.celRulesCostMax, unit: 'ratio', atMost: true, pass: celRulesCost <= targets.celRulesCostMax },
    ],
  };
}

export function formatResults(r: BenchResults): string {
  const e = r.environment;
  const contended = Object.values(r.figures)
    .filter((f) => (f.otherCoreShare ?? 0) >= 0.25)
    .map((f) => f.title);
  const line = (label: string, f: Figures) =>
    `  ${label.padEnd(22)} ${f.reqPerSec.toFixed(0).padStart(7)} req/s   p50 ${ms(f.latencyMs.p50)}   p99 ${ms(f.latencyMs.p99)}   ` +
    `(${f.ok} × ${f.okStatus} in ${f.durationSeconds.toFixed(1)} s, ${problems(f)})\n  ${''.padEnd(22)} ${cpu(f)}`;
  const verdict = (v: Verdict) =>
    `  ${v.name.padEnd(22)} ${v.unit === 'ratio' ? pct(v.value) : `${v.value.toFixed(0)}/s`}   target ${v.atMost ? '≤' : '≥'} ${v.unit === 'ratio' ? pct(v.target) : `${v.target}/s`}   ${v.pass ? 'PASS' : 'MISS'}`;
  return [
    `kapi bench — node ${e.node}, ${e.cpus} cores (${e.cpuModel}), data dir on ${e.dataDirFs}; ${r.config.connections} connections, ` +
      `${r.config.warmupSeconds} s warm-up + ${r.config.seconds} s per measurement; CPUs ${pct(e.busyBeforeRun)} busy before the run`,
    ...(e.busyBeforeRun > 0.25
      ? [`  WARNING: other processes kept the CPUs ${pct(e.busyBeforeRun)} busy just before the run (load average ${e.loadAverage1m}): figures are noisy`]
      : []),
    line('baseline (bare koa)', r.figures.baseline),
    line('kapi GET widget', r.figures.get),
    line('kapi create widget', r.figures.create),
    `  ratios: GET / baseline ${pct(r.ratios.getOverBaseline)}, create / baseline ${pct(r.ratios.createOverBaseline)}` +
      (r.ratios.getOverBaselineByServerCpu !== undefined ? `; GET / baseline by server CPU per request ${pct(r.ratios.getOverBaselineByServerCpu)} (informational)` : ''),
    line('kapi create Plain', r.figures.createPlain),
    line('kapi create Ruled', r.figures.createRuled),
    `  CEL: Ruled (10 rules) / Plain creates/s ${pct(r.ratios.celRuledOverPlain)}, rules cost ${pct(r.ratios.celRulesCost)} of create throughput` +
      (r.ratios.celRulesCostByServerCpu !== undefined && r.ratios.celRulesMicrosPerCreate !== undefined
        ? `; by server CPU per create ${pct(r.ratios.celRulesCostByServerCpu)} (${r.ratios.celRulesMicrosPerCreate >= 0 ? '+' : '−'}${Math.abs(r.ratios.celRulesMicrosPerCreate).toFixed(0)} µs, informational)`
        : ''),
    ...r.verdicts.map(verdict),
    ...(contended.length
      ? [`  NOTE: other processes used ≥ 25% of a core during: ${contended.join(', ')} — rerun on a quiet machine before trusting the verdicts`]
      : []),
  ].join('\n');
}

export async function saveResults(path: string, r: BenchResults): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(r, null, 2) + '\n');
}

/** Where the CPU went during the measurement, in shares of one core. */
function cpu(f: Figures): string {
  const share = (v: number) => `${(100 * v).toFixed(0)}%`;
  const parts = [];
  if (f.serverCpu) parts.push(`server ${share(f.serverCpu.coreShare)} (${f.serverCpu.microsPerOk.toFixed(0)} µs/req)`);
  parts.push(`autocannon ${share(f.clientCoreShare)}`);
  if (f.otherCoreShare !== undefined) parts.push(`other processes ${share(f.otherCoreShare)}`);
  return `CPU, of one core: ${parts.join(', ')}`;
}

function problems(f: Figures): string {
  const others = Object.entries(f.statusCodes).filter(([code]) => code !== String(f.okStatus));
  const parts = [`non-2xx ${f.non2xx}`];
  if (others.length) parts.push(`other statuses: ${others.map(([c, n]) => `${n} × ${c}`).join(', ')}`);
  if (f.errors) parts.push(`errors ${f.errors}`);
  if (f.timeouts) parts.push(`timeouts ${f.timeouts}`);
  return parts.join(', ');
}

const ms = (v: number) => `${(Number.isInteger(v) ? String(v) : v.toFixed(1)).padStart(4)} ms`;
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
