/** The gc group's lines (bench/gc.ts); the issue sets no target for it, so it gives figures and no verdict. */
import type { CollectionFigures, GcPolicyFigures, GcResults } from './gc.js';

export const gcMethod =
  'gc: per propagation policy a fresh kapi process (SQLite) with two owner widgets, each with BENCH_GC_DEPENDENTS dependent widgets ' +
  '(controller ownerReference, blockOwnerDeletion); a collection is timed from the owner\'s DELETE sent until the last dependent\'s ' +
  'DELETED event arrives on a watch opened before it; the first owner is collected idle, the second while the core group\'s create ' +
  'load (32 connections) runs: its 201s/s from the DELETE until the last dependent is gone against the same load\'s over BENCH_SECONDS ' +
  'just before (after a warm-up) and BENCH_SECONDS just after, pooled, same process.';

export function formatGc(r: GcResults): string[] {
  const timing = (label: string, f: CollectionFigures) =>
    `  ${label.padEnd(22)} ${f.deletesPerSec.toFixed(0).padStart(7)} del/s   last dependent gone ${ms(f.lastDependentGoneMs)}   ` +
    `(first ${ms(f.firstDependentGoneMs).trim()}, owner gone ${ms(f.ownerGoneMs).trim()}; DELETE answered ${f.deleteStatus})`;
  const policy = (p: GcPolicyFigures) => {
    const l = p.load;
    const failed = Object.entries(l.failures);
    return [
      timing(`gc ${p.policy}, idle`, p.idle),
      timing(`gc ${p.policy}, loaded`, p.underLoad),
      `  ${''.padEnd(22)} creates ${l.duringPerSec.toFixed(0)}/s during the collection (${l.duringSeconds.toFixed(1)} s) against ${l.withoutPerSec.toFixed(0)}/s ` +
        `without (${l.withoutSeconds.toFixed(1)} s: ${l.withoutBeforePerSec.toFixed(0)}/s before, ${l.withoutAfterPerSec.toFixed(0)}/s after): ${pct(l.ratio)}, the collection costs ${pct(1 - l.ratio)} of the create throughput`,
      ...(failed.length ? [`  WARNING: gc ${p.policy}: the create load had ${failed.map(([s, n]) => `${n} × ${s === '0' ? 'no answer' : `HTTP ${s}`}`).join(', ')}`] : []),
    ];
  };
  return [
    `  garbage collection — an owner widget with ${r.dependents} dependents deleted with propagationPolicy Background, then Foreground; ` +
      'time from the DELETE sent to the DELETED event on a watch',
    ...policy(r.background),
    ...policy(r.foreground),
  ];
}

const ms = (v: number) => `${v.toFixed(0).padStart(5)} ms`;
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
