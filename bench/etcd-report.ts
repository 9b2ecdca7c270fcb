/** The etcd group's verdict and lines (bench/etcd.ts). */
import { targets } from './config.js';
import type { EtcdResults } from './etcd.js';
import type { RawFigures } from './etcd-raw-load.js';
import type { Figures } from './load.js';
import type { Verdict } from './report.js';

export const etcdMethod =
  'etcd: a single-member etcd (Debian etcd-server) on loopback with its data in the run\'s temp dir; the etcd3 baseline runs in this ' +
  'process, one loop per connection sending the next request when the previous is answered (puts of the stored bytes of w1 under fresh ' +
  'keys, gets of w1\'s key), then kapi (a fresh child per measurement, storage on that etcd) under autocannon as in the core group.';

export function etcdVerdict(r: Omit<EtcdResults, 'profiles'>): Verdict {
  const min = targets.etcdCreateOverPutMin;
  const notes = [
    ...(r.rawPut.errors ? [`${r.rawPut.errors} etcd3 puts failed`] : []),
    ...(r.create.non2xx || r.create.errors ? [`${r.create.non2xx} non-2xx and ${r.create.errors} errors among kapi's creates`] : []),
  ];
  return {
    name: 'etcd: create / put',
    value: r.ratios.createOverPut,
    target: min,
    unit: 'ratio',
    pass: r.ratios.createOverPut >= min && notes.length === 0,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
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
  return [
    `  kapi on etcd — values of ${r.valueBytes} bytes; etcd's CPU during kapi's create ${share(r.etcdCoreShare.create)}` +
      `${perOp(r.etcdCoreShare.create, r.create.reqPerSec)}, GET ${share(r.etcdCoreShare.get)}${perOp(r.etcdCoreShare.get, r.get.reqPerSec)}`,
    raw('etcd3 put', r.rawPut),
    line('kapi create (etcd)', r.create),
    raw('etcd3 get', r.rawGet),
    line('kapi GET (etcd)', r.get),
    `  ratios: kapi create / etcd3 put ${pct(r.ratios.createOverPut)}, kapi GET / etcd3 get ${pct(r.ratios.getOverGet)} (informational)`,
  ];
}
