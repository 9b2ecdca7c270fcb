/** The etcd group's verdict and lines (bench/etcd.ts). */
import { targets } from './config.js';
import { createCpuVerdict } from './create-cpu-verdict.js';
import type { EtcdResults } from './etcd.js';
import type { RawFigures } from './etcd-raw-load.js';
import type { Figures } from './load.js';
import type { Verdict } from './report.js';
import type { SplitFigures } from './split-load.js';

export const etcdMethod =
  'etcd: a single-member etcd (Debian etcd-server) on loopback with its data in the run\'s temp dir; the etcd3 baseline runs in this ' +
  'process, one loop per connection sending the next request when the previous is answered (puts of the stored bytes of w1 under fresh ' +
  'keys, create transactions — compare create revision 0, put — of the same, gets of w1\'s key), and kapi (a fresh child per ' +
  'measurement, storage on that etcd) under autocannon as in the core group; every round also runs 2 fresh kapi children on the ' +
  'same etcd at once, half the connections each, their CPU summed; ' +
  'the pairs run in rounds (BENCH_ETCD_ROUNDS), kapi first in every other round; the round with the median kapi CPU per create is ' +
  'reported for creates, the median GET/get ratio for GETs, the median 2-instances/1-instance rate for the 2 instances.';

/** kapi's own CPU per create on etcd (etcd's CPU not counted); creates/s against etcd3 puts/s is information only. */
export function etcdVerdict(r: Omit<EtcdResults, 'profiles'>): Verdict {
  return createCpuVerdict('etcd: create CPU', r.create, targets.createCpuMicrosEtcdMax);
}

export function formatEtcd(r: Omit<EtcdResults, 'profiles'>, line: (label: string, f: Figures) => string): string[] {
  const share = (v: number | undefined) => (v === undefined ? '?' : `${(100 * v).toFixed(0)}%`);
  /** A share of one core spread over `perSecond` operations, in µs of CPU each. */
  const perOp = (v: number | undefined, perSecond: number) => (v === undefined ? '' : ` (${((v * 1e6) / perSecond).toFixed(0)} µs/op)`);
  const raw = (label: string, f: RawFigures) =>
    `  ${label.padEnd(22)} ${f.opsPerSec.toFixed(0).padStart(7)} op/s    p50 ${f.latencyMs.p50.toFixed(1).padStart(4)} ms   p99 ${f.latencyMs.p99.toFixed(1).padStart(4)} ms   ` +
    `(${f.ops} in ${f.durationSeconds.toFixed(1)} s, errors ${f.errors})\n  ${''.padEnd(22)} CPU, of one core: ` +
    `etcd ${share(f.serverCoreShare)}${perOp(f.serverCoreShare, f.opsPerSec)}, etcd3 client ${share(f.clientCoreShare)}${perOp(f.clientCoreShare, f.opsPerSec)}`;
  const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
  const micros = (v: number | undefined) => (v === undefined ? '?' : v.toFixed(0));
  const rounds = r.rounds.map(
    (x, i) =>
      `${i + 1}${x.kapiFirst ? '*' : ''}: ${micros(x.createCpuMicros)} µs, ${x.createReqPerSec.toFixed(0)}/${x.putOpsPerSec.toFixed(0)} = ${pct(x.createOverPut)}, ` +
      `2 instances ${x.twoInstancesReqPerSec.toFixed(0)}/s = ${pct(x.twoOverOneInstance)}`,
  );
  return [
    `  kapi on etcd — values of ${r.valueBytes} bytes; etcd's CPU during kapi's create ${share(r.etcdCoreShare.create)}` +
      `${perOp(r.etcdCoreShare.create, r.create.reqPerSec)}, GET ${share(r.etcdCoreShare.get)}${perOp(r.etcdCoreShare.get, r.get.reqPerSec)}`,
    `  rounds, kapi CPU per create, kapi creates/s / etcd3 puts/s, creates/s of 2 kapi instances / of 1 (* = kapi measured first): ${rounds.join('; ')}`,
    raw('etcd3 put', r.rawPut),
    raw('etcd3 create txn', r.rawTxnCreate),
    line('kapi create (etcd)', r.create),
    cpuBudget(r),
    twoInstances(r.twoInstances, r.oneInstance, r.etcdCoreShare.twoInstances),
    raw('etcd3 get', r.rawGet),
    line('kapi GET (etcd)', r.get),
    `  ratios (informational; a 2-core machine cannot judge them): kapi create / etcd3 put ${pct(r.ratios.createOverPut)}, ` +
      `kapi create / etcd3 create txn ${pct(r.ratios.createOverTxnCreate)}, kapi GET / etcd3 get ${pct(r.ratios.getOverGet)}, ` +
      `creates of 2 kapi instances / of 1 ${pct(r.ratios.twoOverOneInstance)}`,
  ];
}

/**
 * Where the CPU went per operation, put against create: on a machine this small the load generator, etcd and kapi share
 * the same cores, so a create's throughput is bounded by the sum of these. "Machine busy" is os.cpus()'s, which leaves
 * out softirq time (loopback TCP), so it is not compared with the per-process sums.
 */
function cpuBudget(r: Omit<EtcdResults, 'profiles'>): string {
  const us = (coreShare: number | undefined, perSecond: number) => (coreShare === undefined ? '?' : ((coreShare * 1e6) / perSecond).toFixed(0));
  const put = r.rawPut;
  const c = r.create;
  const machine = c.serverCpu && c.otherCoreShare !== undefined ? (c.serverCpu.coreShare + c.clientCoreShare + c.otherCoreShare).toFixed(2) : '?';
  return (
    `  ${''.padEnd(22)} CPU µs per op — put: etcd3 client ${us(put.clientCoreShare, put.opsPerSec)}, etcd ${us(put.serverCoreShare, put.opsPerSec)} ` +
    `(machine ${put.machineCoreShare.toFixed(2)} cores busy); create: autocannon ${us(c.clientCoreShare, c.reqPerSec)}, ` +
    `kapi ${us(c.serverCpu?.coreShare, c.reqPerSec)}, etcd ${us(r.etcdCoreShare.create, c.reqPerSec)} (machine ${machine} cores busy)`
  );
}

/** The 2-instance creates of the median round against that round's 1 instance. */
function twoInstances(two: SplitFigures, one: Figures, etcdShare: number | undefined): string {
  const each = two.servers.map((s) => `${s.reqPerSec.toFixed(0)}/s at ${(100 * s.coreShare).toFixed(0)}%`).join(' and ');
  const etcd = etcdShare === undefined ? '?' : `${(100 * etcdShare).toFixed(0)}%`;
  return (
    `  ${'kapi create, 2 inst.'.padEnd(22)} ${two.reqPerSec.toFixed(0).padStart(7)} req/s   p50 ${two.latencyMs.p50.toFixed(0)} ms   p99 ${two.latencyMs.p99.toFixed(0)} ms ` +
    `(highest of the two; ${two.ok} × 201 in ${two.durationSeconds.toFixed(1)} s, non-2xx ${two.non2xx}, errors ${two.errors}) against 1 instance's ` +
    `${one.reqPerSec.toFixed(0)} req/s in the same round\n  ${''.padEnd(22)} CPU, of one core: kapi ${(100 * two.serverCpu.coreShare).toFixed(0)}% ` +
    `(${two.serverCpu.microsPerOk.toFixed(0)} µs/req; ${each}), etcd ${etcd}, autocannon ${(100 * two.clientCoreShare).toFixed(0)}%, ` +
    `other processes ${two.otherCoreShare === undefined ? '?' : `${(100 * two.otherCoreShare).toFixed(0)}%`}`
  );
}
