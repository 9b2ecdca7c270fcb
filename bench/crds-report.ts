/** The crds group's lines and verdicts (bench/crds.ts). */
import { targets } from './config.js';
import type { CrdsResults, DocumentTimes } from './crds.js';
import type { Verdict } from './report.js';

export const crdsMethod =
  'crds: one fresh kapi process (SQLite, --expose-gc) given BENCH_CRDS CRDs at once (32 POSTs in flight; one version, 50 schema ' +
  'properties, a status subresource, 10 kinds per group), after /openapi/v2, /openapi/v3 and /apis were built once; established: ' +
  'first POST until a watch of the CRDs saw every one Established; memory: RSS (/proc) and V8 heap after full GCs, before the CRDs and ' +
  'after they are established and the OpenAPI documents built, ÷ CRDs; kubectl api-resources with a fresh --cache-dir, then again; ' +
  'OpenAPI: the first request after all were Established, then the median of 5; rebuild: one more CRD in a new group until ' +
  '/openapi/v2 has its paths; event-loop holds: perf_hooks monitorEventLoopDelay (1 ms resolution) in the server process, its max over ' +
  'each window; discovery: two aggregated /apis reads with nothing changed, same ETag.';

export function crdsVerdicts(r: CrdsResults): Verdict[] {
  const loop = Math.max(r.establishMaxEventLoopDelayMs, r.openapi.rebuildMaxEventLoopDelayMs);
  return [
    { name: `CRDs Established (${r.crds})`, value: r.allEstablishedMs, target: targets.crdsEstablishedMsMax, unit: 'ms', atMost: true, pass: r.allEstablishedMs <= targets.crdsEstablishedMsMax },
    { name: 'RSS per CRD', value: r.memory.rssPerCrdMiB, target: targets.crdsRssPerCrdMiBMax, unit: 'MiB', atMost: true, pass: r.memory.rssPerCrdMiB <= targets.crdsRssPerCrdMiBMax },
    { name: 'kubectl api-resources', value: r.apiResources.coldMs, target: targets.crdsApiResourcesMsMax, unit: 'ms', atMost: true, pass: r.apiResources.coldMs <= targets.crdsApiResourcesMsMax },
    {
      name: 'CRDs: event-loop hold',
      value: loop,
      target: targets.crdsEventLoopDelayMsMax,
      unit: 'ms',
      atMost: true,
      pass: loop <= targets.crdsEventLoopDelayMsMax && r.discovery.etagStable,
      ...(r.discovery.etagStable ? {} : { note: "discovery's ETag changed between two reads" }),
    },
  ];
}

export function formatCrds(r: CrdsResults): string[] {
  const doc = (label: string, d: DocumentTimes) =>
    `  ${label.padEnd(22)} first ${ms(d.firstMs)}   cached ${ms(d.cachedMs)}   ${(d.bytes / 2 ** 20).toFixed(1)} MiB   If-None-Match ${d.notModified ? '304' : 'NOT 304'}`;
  const m = r.memory;
  return [
    `  crds — ${r.crds} CRDs (${r.propertiesPerCrd} properties, ${r.kindsPerGroup} kinds per group) applied together`,
    `  ${'all Established'.padEnd(22)} ${ms(r.allEstablishedMs)}   event loop held at most ${ms(r.establishMaxEventLoopDelayMs).trim()} meanwhile`,
    `  ${'memory'.padEnd(22)} RSS ${m.rssBeforeMiB.toFixed(0)} → ${m.rssAfterMiB.toFixed(0)} MiB (${(1024 * m.rssPerCrdMiB).toFixed(0)} KiB per CRD); ` +
      `heap after GC ${m.heapBeforeMiB.toFixed(0)} → ${m.heapAfterMiB.toFixed(0)} MiB (${(1024 * m.heapPerCrdMiB).toFixed(0)} KiB per CRD)`,
    `  ${'kubectl api-resources'.padEnd(22)} cold cache ${ms(r.apiResources.coldMs)}   warm ${ms(r.apiResources.warmMs)}   (${r.apiResources.lines} lines)`,
    doc('/openapi/v2', r.openapi.v2),
    doc('/openapi/v3', r.openapi.v3Root),
    doc('/openapi/v3/apis/G/V', r.openapi.v3GroupVersion),
    `  ${'one CRD more'.padEnd(22)} in /openapi/v2 after ${ms(r.openapi.oneMoreCrdInV2Ms)}   event loop held at most ${ms(r.openapi.rebuildMaxEventLoopDelayMs).trim()} meanwhile`,
    `  ${'discovery'.padEnd(22)} ${r.discovery.groups} groups in aggregated /apis, ETag ${r.discovery.etagStable ? 'stable' : 'CHANGED'} between two reads`,
  ];
}

const ms = (v: number) => `${(v < 10 ? v.toFixed(1) : v.toFixed(0)).padStart(6)} ms`;
