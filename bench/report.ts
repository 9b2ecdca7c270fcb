/** Turns the measurements into the verdicts against the issue's targets, prints them and saves them as JSON. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { benchPhases, targets, type BenchConfig } from './config.js';
import type { ApplyFigures, ApplyResults } from './apply-throughput.js';
import type { AdmissionResults, AdmissionRow } from './admission-throughput.js';
import type { Environment } from './environment.js';
import type { ListLargeResults, ListTiming } from './list-large.js';
import type { Figures } from './load.js';
import { median } from './median.js';
import { createCpuVerdict } from './create-cpu-verdict.js';
import type { FanoutFigures, WatchFanoutResults } from './watch-fanout.js';
import type { EtcdResults } from './etcd.js';
import { etcdMethod, etcdVerdict, formatEtcd } from './etcd-report.js';
import type { CodecResults } from './codecs.js';
import { codecsMethod, codecsVerdicts, formatCodecs } from './codecs-report.js';
import type { ExhaustionResults } from './exhaustion.js';
import { exhaustionMethod, exhaustionVerdicts, formatExhaustion } from './exhaustion-report.js';
import type { GcResults } from './gc.js';
import { formatGc, gcMethod } from './gc-report.js';
import type { AuthzResults } from './authz.js';
import { authzMethod, authzVerdict, formatAuthz } from './authz-report.js';
import type { AggregationResults } from './aggregation.js';
import { aggregationMethod, aggregationVerdict, formatAggregation } from './aggregation-report.js';
import type { OverloadResults } from './overload.js';
import { formatOverload, overloadMethod, overloadVerdicts } from './overload-report.js';
import type { CrdsResults } from './crds.js';
import { crdsMethod, crdsVerdicts, formatCrds } from './crds-report.js';

export interface Verdict {
  name: string;
  value: number;
  target: number;
  /** How `value` is expressed (ratio of baseline, operations per second, milliseconds, CPU microseconds per operation, or a multiple). */
  unit: 'ratio' | 'req/s' | 'ms' | 'µs' | 'times' | 'MiB';
  /** Set when `target` is a ceiling (`value` must be ≤ it); otherwise it is a floor. */
  atMost?: true;
  pass: boolean;
  /** Why the verdict is not just value against target (a condition of the measurement that was not met). */
  note?: string;
}

export interface BenchResults {
  finishedAt: string;
  config: BenchConfig;
  environment: Environment;
  /** How the servers were run, so the figures can be compared run to run. */
  method: string;
  /** The phases that ran (BENCH_ONLY); the sections of the others are absent. */
  phases: string[];
  /** Phase `core`: throughput of GET and creates against the bare koa baseline. */
  figures?: CoreFigures;
  ratios?: CoreRatios;
  /** Phase `fanout`: watch event delivery with one watcher (baseline) and with many. */
  watchFanout?: Omit<WatchFanoutResults, 'profiles'>;
  /** Phase `list`: lists of a large collection against a bare koa baseline answering the same bytes, and memory per object. */
  listLarge?: Omit<ListLargeResults, 'profiles'>;
  /** Phase `apply`: server-side applies (no-op, one field changed) against PUTs of the same object. */
  apply?: Omit<ApplyResults, 'profiles'> & { ratios: ApplyRatios };
  /** Phase `admission`: creates with in-process plugins, policies and a webhook, each against none. */
  admission?: Omit<AdmissionResults, 'profiles'>;
  /** Phase `etcd`: kapi creates and GETs on etcd against etcd3 puts and gets. */
  etcd?: Omit<EtcdResults, 'profiles'>;
  /** Phase `codecs`: lists and watch fan-out as JSON, protobuf and CBOR. */
  codecs?: Omit<CodecResults, 'profiles'>;
  /** Phase `exhaustion`: what hostile or careless clients cost everyone else. */
  exhaustion?: ExhaustionResults;
  /** Phase `gc`: collection of an owner's dependents (Background, Foreground), idle and under a create load (no target: figures only). */
  gc?: GcResults;
  /** Phase `authz`: GET with RBAC (many roles and bindings in place) against AlwaysAllow. */
  authz?: AuthzResults;
  /** Phase `aggregation`: GET of an aggregated API server's resource through a front kapi against direct. */
  aggregation?: AggregationResults;
  /** Phase `overload`: a quiet tenant and /healthz while a noisy tenant sends 10× the server's capacity. */
  overload?: OverloadResults;
  /** Phase `crds`: thousands of CRDs applied together: establishment, memory, discovery and OpenAPI. */
  crds?: CrdsResults;
  verdicts: Verdict[];
}

export interface CoreFigures {
  baseline: Figures;
  get: Figures;
  create: Figures;
  /** Creates of the CRD without rules and of the same CRD with ten x-kubernetes-validations rules. */
  createPlain: Figures;
  createRuled: Figures;
}

export interface CoreRatios {
  /** The median of the GET windows' ratios when measured in turns (measureAlternating), else the two rates' ratio. */
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
}

export interface ApplyRatios {
  /** No-op applies/s ÷ PUTs/s. */
  noopOverPut: number;
  /** Applies/s with one field changed ÷ PUTs/s. */
  changeOverPut: number;
  /** The same by server CPU per request (PUT µs/req ÷ apply µs/req): insensitive to a busy machine (informational). */
  noopOverPutByServerCpu?: number;
  changeOverPutByServerCpu?: number;
}

export const method =
  'Each server runs in its own Node child process (forked) over HTTPS on 127.0.0.1 with the same ensurePki serving ' +
  'certificate; autocannon runs in the parent process, 32 keep-alive connections, no pipelining, a warm-up before each measurement. ' +
  'The baseline and kapi GET are driven by wrk instead when it is installed (wrk -t1 -c32 --latency, its own process, pinned with ' +
  'taskset to another CPU than the servers; 2xx/3xx count), and GET a widget created as kubectl apply creates it (~1 KiB). ' +
  'Those two servers run together and are measured in turns, five windows each adding up to the measurement time (the machine\'s ' +
  'speed drifts within minutes); GET / baseline is the median of the five window-by-window ratios. Creates run one server at a time. ' +
  'req/s counts only the expected status (200 for GET, 201 for create) over the measured duration. ' +
  'The CEL phases create objects of two CRDs identical but for ten x-kubernetes-validations rules, each in a fresh data dir set up alike.';

const fanoutMethod =
  'Watch fan-out: a fresh kapi process (fresh data dir with the widgets CRD and w1) gets N watches from the resourceVersion of a list, ' +
  'one TLS connection each (HTTP/1.1), then again as streams spread round robin over a few HTTP/2 connections (with Go\'s transport\'s flow-control windows), held by a separate child process; this process merge-patches w1 (spec.replicas) at a fixed pace set by a ' +
  'timer, up to 8 writes in flight (a write late for its slot goes as soon as one is acknowledged), after an unmeasured warm-up. ' +
  'Latency = MODIFIED event received by a watcher − write response received, over all watcher × write pairs (process.hrtime in both ' +
  'processes). The baseline is the same with one watcher.';

const listMethod =
  'Large list: one fresh kapi process (--expose-gc) with the widgets filled by concurrent POSTs; each list is timed from request to last byte ' +
  'over one keep-alive connection, unparsed (answers are checked afterwards), median of the measured runs after warm-up runs; pages are ' +
  'followed via the continue token found in the page head. The baseline is a bare koa process answering the same bytes as kapi\'s full list. ' +
  'Memory per object = (heapUsed after GC with the widgets − heapUsed after GC before creating them) ÷ widgets.';

const applyMethod =
  'Apply: a fresh kapi process per measurement (one data dir, set up in a throw-away process: a CRD whose spec has two scalars and a ' +
  '50-item list-map keyed by name, and 32 objects per measurement); 32 workers in this process, each on its own object over its own ' +
  'keep-alive TLS connection, send their next request when the previous one is answered, after a warm-up. Baseline: PUT of the full object ' +
  'with the resourceVersion of the previous answer and spec.replicas changed; then apply (fieldManager=bench) of the unchanged ' +
  'configuration, and of the configuration with spec.replicas changed. req/s counts 200s; every 200\'s resourceVersion is checked.';

export interface MeasuredParts {
  core?: CoreFigures;
  watchFanout?: WatchFanoutResults;
  listLarge?: ListLargeResults;
  apply?: ApplyResults;
  admission?: AdmissionResults;
  etcd?: EtcdResults;
  codecs?: CodecResults;
  exhaustion?: ExhaustionResults;
  gc?: GcResults;
  authz?: AuthzResults;
  aggregation?: AggregationResults;
  overload?: OverloadResults;
  crds?: CrdsResults;
}

export function buildResults(cfg: BenchConfig, environment: Environment, parts: MeasuredParts): BenchResults {
  const verdicts: Verdict[] = [];
  const core = parts.core ? coreResults(parts.core) : undefined;
  if (core) verdicts.push(...core.verdicts);
  let watchFanout: BenchResults['watchFanout'];
  if (parts.watchFanout) {
    const { profiles: _, ...rest } = parts.watchFanout;
    watchFanout = rest;
    verdicts.push(fanoutVerdict(rest.fanout), fanoutVerdict(rest.fanoutHttp2));
  }
  let listLarge: BenchResults['listLarge'];
  if (parts.listLarge) {
    const { profiles: _, ...rest } = parts.listLarge;
    listLarge = rest;
    const max = targets.list10kMsMax;
    verdicts.push(
      { name: `list ${rest.objects} (latest)`, value: rest.latest.medianMs, target: max, unit: 'ms', atMost: true, pass: rest.latest.medianMs <= max },
      { name: `list ${rest.objects} (rv=0)`, value: rest.rv0.medianMs, target: max, unit: 'ms', atMost: true, pass: rest.rv0.medianMs <= max },
      {
        name: 'heap per object / JSON',
        value: rest.memory.overJson,
        target: targets.cacheBytesOverJsonMax,
        unit: 'times',
        atMost: true,
        pass: rest.memory.overJson <= targets.cacheBytesOverJsonMax,
      },
    );
  }
  let admission: BenchResults['admission'];
  if (parts.admission) {
    const { profiles: _, ...rest } = parts.admission;
    admission = rest;
    for (const v of rest.variants) {
      if (v.judgedByLatency) {
        const max = targets.admissionWebhookAddedP50MsMax;
        verdicts.push({ name: `${v.title}: added p50`, value: v.addedP50Ms, target: max, unit: 'ms', atMost: true, pass: v.addedP50Ms <= max });
      } else {
        const max = targets.admissionCostMax;
        verdicts.push({ name: `${v.title}: cost`, value: v.cost, target: max, unit: 'ratio', atMost: true, pass: v.cost <= max });
      }
    }
  }
  let apply: BenchResults['apply'];
  if (parts.apply) {
    const { profiles: _, ...rest } = parts.apply;
    const byCpu = (f: ApplyFigures) => (rest.put.serverCpu && f.serverCpu?.microsPerOk ? rest.put.serverCpu.microsPerOk / f.serverCpu.microsPerOk : undefined);
    const [noopByCpu, changeByCpu] = [byCpu(rest.noop), byCpu(rest.change)];
    apply = {
      ...rest,
      ratios: {
        noopOverPut: rest.noop.reqPerSec / rest.put.reqPerSec,
        changeOverPut: rest.change.reqPerSec / rest.put.reqPerSec,
        ...(noopByCpu !== undefined ? { noopOverPutByServerCpu: noopByCpu } : {}),
        ...(changeByCpu !== undefined ? { changeOverPutByServerCpu: changeByCpu } : {}),
      },
    };
    verdicts.push(
      applyVerdict('apply no-op / PUT', apply.ratios.noopOverPut, rest.noop, rest.put),
      applyVerdict('apply change / PUT', apply.ratios.changeOverPut, rest.change, rest.put),
    );
  }
  let etcd: BenchResults['etcd'];
  if (parts.etcd) {
    const { profiles: _, ...rest } = parts.etcd;
    etcd = rest;
    verdicts.push(etcdVerdict(rest));
  }
  let codecs: BenchResults['codecs'];
  if (parts.codecs) {
    const { profiles: _, ...rest } = parts.codecs;
    codecs = rest;
    verdicts.push(...codecsVerdicts(rest));
  }
  if (parts.exhaustion) verdicts.push(...exhaustionVerdicts(parts.exhaustion));
  if (parts.authz) verdicts.push(authzVerdict(parts.authz));
  if (parts.aggregation) verdicts.push(aggregationVerdict(parts.aggregation));
  if (parts.overload) verdicts.push(...overloadVerdicts(parts.overload));
  if (parts.crds) verdicts.push(...crdsVerdicts(parts.crds));
  return {
    finishedAt: new Date().toISOString(),
    config: cfg,
    environment,
    method: [core ? method : '', watchFanout ? fanoutMethod : '', listLarge ? listMethod : '', apply ? applyMethod : '', etcd ? etcdMethod : '', codecs ? codecsMethod : '', parts.exhaustion ? exhaustionMethod : '', parts.gc ? gcMethod : '', parts.authz ? authzMethod : '', parts.aggregation ? aggregationMethod : '', parts.overload ? overloadMethod : '', parts.crds ? crdsMethod : '']
      .filter(Boolean)
      .join(' '),
    phases: cfg.only,
    ...(core ? { figures: parts.core, ratios: core.ratios } : {}),
    ...(watchFanout ? { watchFanout } : {}),
    ...(listLarge ? { listLarge } : {}),
    ...(apply ? { apply } : {}),
    ...(admission ? { admission } : {}),
    ...(etcd ? { etcd } : {}),
    ...(codecs ? { codecs } : {}),
    ...(parts.exhaustion ? { exhaustion: parts.exhaustion } : {}),
    ...(parts.gc ? { gc: parts.gc } : {}),
    ...(parts.authz ? { authz: parts.authz } : {}),
    ...(parts.aggregation ? { aggregation: parts.aggregation } : {}),
    ...(parts.overload ? { overload: parts.overload } : {}),
    ...(parts.crds ? { crds: parts.crds } : {}),
    verdicts,
  };
}

/**
 * p99 delivery latency against the target, which holds at the target write rate and without losses: a server that
 * holds the writer back (writes are sent one at a time) is measured at a lower event rate, so that is a MISS too.
 */
function fanoutVerdict(f: FanoutFigures): Verdict {
  const p99 = f.delivery.latencyMs.p99;
  const rateMet = f.updatesPerSec >= 0.95 * f.targetUpdatesPerSec;
  const notes = [
    ...(rateMet ? [] : [`only ${f.updatesPerSec.toFixed(0)} of ${f.targetUpdatesPerSec} updates/s: the server held the writer back`]),
    ...(f.delivery.lost ? [`${f.delivery.lost} events lost`] : []),
  ];
  return {
    name: `watch p99 (${f.watchers}${f.http2Connections ? ' h2' : ''})`,
    value: p99,
    target: targets.watchFanoutP99MsMax,
    unit: 'ms',
    atMost: true,
    pass: p99 <= targets.watchFanoutP99MsMax && rateMet && f.delivery.lost === 0,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/** An apply / PUT ratio against the target; failed requests or wrong resourceVersions in either measurement make it a MISS. */
function applyVerdict(name: string, ratio: number, apply: ApplyFigures, put: ApplyFigures): Verdict {
  const notes = [apply, put].flatMap((f) => applyProblems(f).map((p) => `${f.title}: ${p}`));
  return {
    name,
    value: ratio,
    target: targets.applyOverPut,
    unit: 'ratio',
    pass: ratio >= targets.applyOverPut && notes.length === 0,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

function applyProblems(f: ApplyFigures): string[] {
  const out: string[] = [];
  const failed = Object.entries(f.failures);
  const statuses = failed.map(([status, { count }]) => `${count} × ${status === '0' ? 'no answer' : `HTTP ${status}`}`);
  if (failed.length) out.push(`${f.total - f.ok} of ${f.total} failed: ${statuses.join(', ')}`);
  if (f.wrongResourceVersion.count) out.push(`${f.wrongResourceVersion.count} answers with ${f.workload === 'noop' ? 'a new' : 'an unchanged'} resourceVersion`);
  return out;
}

function coreResults(figures: CoreFigures): { ratios: CoreRatios; verdicts: Verdict[] } {
  const getOverBaseline = windowRatio(figures.get, figures.baseline) ?? figures.get.reqPerSec / figures.baseline.reqPerSec;
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
      getVerdict(figures, getOverBaseline),
      { name: 'create req/s', value: figures.create.reqPerSec, target: targets.createPerSecond, unit: 'req/s', pass: figures.create.reqPerSec >= targets.createPerSecond },
      createCpuVerdict('create CPU (SQLite)', figures.create, targets.createCpuMicrosSqliteMax),
      { name: 'rules cost', value: celRulesCost, target: targets.celRulesCostMax, unit: 'ratio', atMost: true, pass: celRulesCost <= targets.celRulesCostMax },
    ],
  };
}

/** The median of `a`'s window rates over `b`'s, window by window, when both were measured in the same turns. */
function windowRatio(a: Figures, b: Figures): number | undefined {
  const wa = a.windowReqPerSec;
  const wb = b.windowReqPerSec;
  if (!wa || !wb || wa.length !== wb.length) return undefined;
  return median(wa.map((rate, i) => rate / wb[i]!));
}

/** GET / baseline, judged only on wrk's figures with a baseline that saturated a core (issue #25 item 8). */
function getVerdict(figures: CoreFigures, getOverBaseline: number): Verdict {
  const notes: string[] = [];
  const generators = new Set([figures.baseline.loadGenerator, figures.get.loadGenerator]);
  if (generators.size !== 1 || !generators.has('wrk')) notes.push(`measured with ${[...generators].join(' and ')}, not wrk: install wrk for the judged figure`);
  const baselineShare = figures.baseline.serverCpu?.coreShare;
  if (baselineShare !== undefined && baselineShare < targets.getBaselineServerCoreShareMin) {
    notes.push(`the baseline's server used ${share(baselineShare)} of a core, under ${share(targets.getBaselineServerCoreShareMin)}: the load generator or other processes were the limit`);
  }
  return {
    name: 'GET / baseline',
    value: getOverBaseline,
    target: targets.getOverBaseline,
    unit: 'ratio',
    pass: getOverBaseline >= targets.getOverBaseline && notes.length === 0,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

export function formatResults(r: BenchResults): string {
  const e = r.environment;
  const contended = [
    ...Object.values(r.figures ?? {})
      .filter((f) => (f.otherCoreShare ?? 0) >= 0.25)
      .map((f) => f.title),
    ...(r.watchFanout ? [r.watchFanout.baseline, r.watchFanout.fanout, r.watchFanout.fanoutHttp2] : []).filter((f) => f.cpu.other >= 0.25).map((f) => f.title),
    ...(r.apply ? [r.apply.put, r.apply.noop, r.apply.change] : []).filter((f) => (f.otherCoreShare ?? 0) >= 0.25).map((f) => f.title),
  ];
  const line = (label: string, f: Figures) =>
    `  ${label.padEnd(22)} ${f.reqPerSec.toFixed(0).padStart(7)} req/s   p50 ${ms(f.latencyMs.p50)}   p99 ${ms(f.latencyMs.p99)}   ` +
    `(${f.ok} × ${f.okStatus} in ${f.durationSeconds.toFixed(1)} s, ${problems(f)})\n  ${''.padEnd(22)} ${cpu(f)}`;
  const verdict = (v: Verdict) =>
    `  ${v.name.padEnd(22)} ${value(v.unit, v.value)}   target ${v.atMost ? '≤' : '≥'} ${value(v.unit, v.target)}   ${v.pass ? 'PASS' : 'MISS'}${v.note ? ` (${v.note})` : ''}`;
  return [
    `kapi bench — node ${e.node}, ${e.cpus} cores (${e.cpuModel}), data dir on ${e.dataDirFs}; ` +
      (r.figures ? `${r.config.connections} connections, ${r.config.warmupSeconds} s warm-up + ${r.config.seconds} s per measurement; ` : '') +
      `CPUs ${pct(e.busyBeforeRun)} busy before the run` +
      (r.phases.length < benchPhases.length ? ` (BENCH_ONLY=${r.phases.join(',')})` : ''),
    ...(e.busyBeforeRun > 0.25
      ? [`  WARNING: other processes kept the CPUs ${pct(e.busyBeforeRun)} busy just before the run (load average ${e.loadAverage1m}): figures are noisy`]
      : []),
    ...(r.figures && r.ratios ? formatCore(r.figures, r.ratios, line) : []),
    ...(r.watchFanout ? formatFanout(r.watchFanout, r.config) : []),
    ...(r.listLarge ? formatList(r.listLarge, r.config) : []),
    ...(r.apply ? formatApply(r.apply, r.config) : []),
    ...(r.admission ? formatAdmission(r.admission, line) : []),
    ...(r.etcd ? formatEtcd(r.etcd, line) : []),
    ...(r.codecs ? formatCodecs(r.codecs) : []),
    ...(r.exhaustion ? formatExhaustion(r.exhaustion) : []),
    ...(r.gc ? formatGc(r.gc) : []),
    ...(r.authz ? formatAuthz(r.authz) : []),
    ...(r.aggregation ? formatAggregation(r.aggregation, line) : []),
    ...(r.overload ? formatOverload(r.overload) : []),
    ...(r.crds ? formatCrds(r.crds) : []),
    ...r.verdicts.map(verdict),
    ...(contended.length
      ? [`  NOTE: other processes used ≥ 25% of a core during: ${contended.join(', ')} — rerun on a quiet machine before trusting the verdicts`]
      : []),
  ].join('\n');
}

/** How a ratio taken window by window came about: each window's ratio, in the order measured. */
function windowsNote(a: Figures, b: Figures): string {
  const wa = a.windowReqPerSec;
  const wb = b.windowReqPerSec;
  if (!wa || !wb || wa.length !== wb.length) return '';
  return ` (median of ${wa.length} windows in turns: ${wa.map((rate, i) => pct(rate / wb[i]!)).join(', ')})`;
}

function formatCore(figures: CoreFigures, ratios: CoreRatios, line: (label: string, f: Figures) => string): string[] {
  const r = { figures, ratios }; // as the lines read in BenchResults
  return [
    line('baseline (bare koa)', r.figures.baseline),
    line('kapi GET widget', r.figures.get),
    line('kapi create widget', r.figures.create),
    `  ratios: GET / baseline ${pct(r.ratios.getOverBaseline)}${windowsNote(r.figures.get, r.figures.baseline)}, create / baseline ${pct(r.ratios.createOverBaseline)}` +
      (r.ratios.getOverBaselineByServerCpu !== undefined ? `; GET / baseline by server CPU per request ${pct(r.ratios.getOverBaselineByServerCpu)} (informational)` : ''),
    line('kapi create Plain', r.figures.createPlain),
    line('kapi create Ruled', r.figures.createRuled),
    `  CEL: Ruled (10 rules) / Plain creates/s ${pct(r.ratios.celRuledOverPlain)}, rules cost ${pct(r.ratios.celRulesCost)} of create throughput` +
      (r.ratios.celRulesCostByServerCpu !== undefined && r.ratios.celRulesMicrosPerCreate !== undefined
        ? `; by server CPU per create ${pct(r.ratios.celRulesCostByServerCpu)} (${r.ratios.celRulesMicrosPerCreate >= 0 ? '+' : '−'}${Math.abs(r.ratios.celRulesMicrosPerCreate).toFixed(0)} µs, informational)`
        : ''),
  ];
}

function formatFanout(w: NonNullable<BenchResults['watchFanout']>, cfg: BenchConfig): string[] {
  const line = (label: string, f: FanoutFigures) => {
    const d = f.delivery;
    const l = d.latencyMs;
    return [
      `  ${label.padEnd(22)} ${f.updatesPerSec.toFixed(0).padStart(7)} upd/s   p50 ${ms(l.p50)}   p99 ${ms(l.p99)}   max ${ms(l.max)}   ` +
        `(${d.delivered} of ${d.expected} events in ${f.durationSeconds.toFixed(1)} s, ${f.eventsPerSec.toFixed(0)} events/s, lost ${d.lost})`,
      `  ${''.padEnd(22)} writes: ${f.updates} × 200 (${f.failedUpdates} failed), p50 ${ms(f.writeLatencyMs.p50)}, p99 ${ms(f.writeLatencyMs.p99)}; ` +
        `last event ${ms(f.tailMs)} after the last write; watches opened in ${(f.openMs / 1000).toFixed(1)} s`,
      `  ${''.padEnd(22)} CPU, of one core: server ${share(f.cpu.server)} (${f.serverMicrosPerEvent.toFixed(1)} µs per event delivered, writes included), ` +
        `watch clients ${share(f.cpu.watchClients)}, writer ${share(f.cpu.writer)}, other processes ${share(f.cpu.other)}; ` +
        `watch clients' event-loop delay p99 ${ms(f.watchClientsLoopDelayMs.p99).trim()}, max ${ms(f.watchClientsLoopDelayMs.max).trim()}`,
      ...deliveryProblems(f).map((p) => `  WARNING: ${f.title}: ${p}`),
      ...(f.cpu.watchClients >= 0.8
        ? [
            `  NOTE: ${f.title}: the watch clients used ${share(f.cpu.watchClients)} of a core; near saturation, their late reads count as delivery ` +
              'latency (their event-loop delay bounds how late)',
          ]
        : []),
    ];
  };
  return [
    `  watch fan-out — w1 merge-patched at ${cfg.fanout.updatesPerSecond}/s (timer-paced, up to 8 writes in flight), ${cfg.warmupSeconds} s warm-up + ${cfg.fanout.seconds} s; ` +
      'latency = MODIFIED event received − write acknowledged (< 0: the event came first), over all watcher × write pairs; ' +
      `on HTTP/2: the watches as streams of ${w.fanoutHttp2.http2Connections} connections`,
    ...line(`fan-out, 1 watch`, w.baseline),
    ...line(`fan-out, ${w.fanout.watchers} watches`, w.fanout),
    ...line(`fan-out, ${w.fanoutHttp2.watchers} on HTTP/2`, w.fanoutHttp2),
  ];
}

/** What went wrong with the delivery: the server's doing, reported rather than worked around. */
function deliveryProblems(f: FanoutFigures): string[] {
  const d = f.delivery;
  const out: string[] = [];
  if (d.lost) out.push(`${d.lost} of ${d.expected} events never arrived (waited until none arrived for 5 s, at most 30 s after the last write)`);
  if (d.duplicates) out.push(`${d.duplicates} events arrived more than once`);
  if (d.ended) out.push(`${d.ended} watches were ended by the server`);
  if (d.unparsed) out.push(`${d.unparsed} lines of the watch streams were not watch events`);
  const others = Object.entries(d.otherEvents);
  if (others.length) out.push(`events other than MODIFIED: ${others.map(([t, n]) => `${n} × ${t}`).join(', ')}`);
  if (f.failedUpdates) {
    const why = Object.entries(f.failedStatuses).map(([status, { count, first }]) => `${count} × ${status === '0' ? 'no response' : `HTTP ${status}`} (${first.slice(0, 160)})`);
    out.push(`${f.failedUpdates} writes failed: ${why.join('; ')}`);
  }
  if (d.watchers !== f.watchers) out.push(`${d.watchers} watches open instead of ${f.watchers}`);
  return out;
}

function formatList(l: NonNullable<BenchResults['listLarge']>, cfg: BenchConfig): string[] {
  const line = (label: string, t: ListTiming) => [
    `  ${label.padEnd(22)} ${ms(t.medianMs)} per list   min ${ms(t.minMs)}   max ${ms(t.maxMs)}   ` +
      `(${t.items} items, ${(t.bytes / 2 ** 20).toFixed(1)} MiB${t.pages > 1 ? ` in ${t.pages} pages` : ''}; server CPU ${ms(t.serverCpuMedianMs)} per list)`,
    ...t.problems.map((p) => `  WARNING: ${t.title}: ${p}`),
  ];
  const m = l.memory;
  return [
    `  large list — ${l.objects} widgets of ${l.objectJsonBytes.toFixed(0)} bytes of JSON (created at ${l.createsPerSec.toFixed(0)}/s); ` +
      `median of ${cfg.list.runs} lists after ${cfg.list.warmupRuns} warm-up, request → last byte`,
    ...line('baseline list (koa)', l.baseline),
    ...line('kapi list (latest)', l.latest),
    ...line('kapi list (rv=0)', l.rv0),
    ...line(`kapi list (limit=${cfg.list.pageLimit})`, l.paged),
    `  ratios: list latest / baseline ${(l.latest.medianMs / l.baseline.medianMs).toFixed(1)}×, rv=0 / baseline ${(l.rv0.medianMs / l.baseline.medianMs).toFixed(1)}×`,
    `  memory: heap after GC ${mib(m.heapEmptyBytes)} with 0 widgets, ${mib(m.heapFullBytes)} with ${l.objects}: ${m.bytesPerObject.toFixed(0)} bytes per widget = ` +
      `${m.overJson.toFixed(2)}× its JSON`,
    `          (everything the server's heap holds per object: the watch cache's copy and event history, what the storage engine and the controllers keep of it)`,
  ];
}

function formatApply(a: NonNullable<BenchResults['apply']>, cfg: BenchConfig): string[] {
  const line = (label: string, f: ApplyFigures) => {
    const rv = f.workload === 'noop' ? 'resourceVersion unchanged' : 'new resourceVersion';
    const cpuParts = [
      ...(f.serverCpu ? [`server ${share(f.serverCpu.coreShare)} (${f.serverCpu.microsPerOk.toFixed(0)} µs/req)`] : []),
      `workers ${share(f.clientCoreShare)}`,
      ...(f.otherCoreShare !== undefined ? [`other processes ${share(f.otherCoreShare)}`] : []),
    ];
    return [
      `  ${label.padEnd(22)} ${f.reqPerSec.toFixed(0).padStart(7)} req/s   p50 ${ms(f.latencyMs.p50)}   p99 ${ms(f.latencyMs.p99)}   ` +
        `(${f.ok} × 200 of ${f.total} in ${f.durationSeconds.toFixed(1)} s; ${rv} in ${f.ok - f.wrongResourceVersion.count} of ${f.ok}; ${f.requestBytes} bytes a request)`,
      `  ${''.padEnd(22)} CPU, of one core: ${cpuParts.join(', ')}`,
      ...Object.entries(f.failures).map(
        ([status, { count, first }]) => `  WARNING: ${f.title}: ${count} × ${status === '0' ? 'no answer' : `HTTP ${status}`}, the first: ${first.slice(0, 300)}`,
      ),
      ...(f.wrongResourceVersion.first ? [`  WARNING: ${f.title}: ${f.wrongResourceVersion.count} answers not with a ${rv}, the first: ${f.wrongResourceVersion.first}`] : []),
    ];
  };
  return [
    `  apply — Gadgets with a ${a.items}-item list-map, ${a.workers} workers each on its own object (next request when answered), ` +
      `${cfg.warmupSeconds} s warm-up + ${cfg.seconds} s, a fresh kapi process each`,
    ...line('kapi PUT (baseline)', a.put),
    ...line('kapi apply no-op', a.noop),
    ...line('kapi apply 1 change', a.change),
    `  ratios: apply no-op / PUT ${pct(a.ratios.noopOverPut)}, apply 1 change / PUT ${pct(a.ratios.changeOverPut)}` +
      (a.ratios.noopOverPutByServerCpu !== undefined && a.ratios.changeOverPutByServerCpu !== undefined
        ? `; by server CPU per request ${pct(a.ratios.noopOverPutByServerCpu)} and ${pct(a.ratios.changeOverPutByServerCpu)} (informational)`
        : ''),
  ];
}

export async function saveResults(path: string, r: BenchResults): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(r, null, 2) + '\n');
}

/** Where the CPU went during the measurement, in shares of one core. */
function cpu(f: Figures): string {
  const parts = [];
  if (f.serverCpu) parts.push(`server ${share(f.serverCpu.coreShare)} (${f.serverCpu.microsPerOk.toFixed(0)} µs/req)`);
  parts.push(`${f.loadGenerator} ${share(f.clientCoreShare)}`);
  if (f.cpuPinning) parts.push(`pinned: server on CPU ${f.cpuPinning.server}, ${f.loadGenerator} on CPU ${f.cpuPinning.loadGenerator}`);
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

const value = (unit: Verdict['unit'], v: number) =>
  unit === 'ratio' ? pct(v) : unit === 'req/s' ? `${v.toFixed(0)}/s` : unit === 'ms' ? ms(v).trim() : unit === 'µs' ? `${v.toFixed(0)} µs` : unit === 'MiB' ? `${v.toFixed(3)} MiB` : `${v.toFixed(2)}×`;
const share = (v: number) => `${(100 * v).toFixed(0)}%`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const ms = (v: number) => {
  const r = Math.abs(v) < 0.05 ? 0 : v; // no "-0.0"
  return `${(Number.isInteger(r) ? String(r) : r.toFixed(1)).padStart(4)} ms`;
};
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

function formatAdmission(a: Omit<AdmissionResults, 'profiles'>, line: (label: string, f: Figures) => string): string[] {
  const single = (r: AdmissionRow) =>
    `  ${'  one at a time'.padEnd(22)} p50 ${r.single.latencyMs.p50.toFixed(2)} ms   p90 ${r.single.latencyMs.p90.toFixed(2)} ms   p99 ${r.single.latencyMs.p99.toFixed(2)} ms   (${r.single.requests} creates)`;
  return [
    line('create, none', a.none.load),
    single(a.none),
    ...a.variants.flatMap((v) => [
      line(`create, ${v.key}`, v.load),
      single(v),
      `  ${v.title}: ${pct(v.overNone)} of the creates/s without admission; p50 one at a time ${v.addedP50Ms >= 0 ? '+' : ''}${v.addedP50Ms.toFixed(2)} ms`,
    ]),
  ];
}
