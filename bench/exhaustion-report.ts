/** The exhaustion group's verdicts and lines (bench/exhaustion.ts). */
import { targets } from './config.js';
import type { ExhaustionResults } from './exhaustion.js';
import type { Verdict } from './report.js';

export const exhaustionMethod =
  'Exhaustion: each case in a fresh kapi process (SQLite): a large list as YAML, JSON and CBOR while /readyz is probed every 10 ms on its own ' +
  'connection (the longest probe is how long the list held the event loop; the idle server\'s longest probe is the baseline); a widget with ' +
  '16,000 unknown fields under fieldValidation=Warn against a valid body of the same size; a ValidatingAdmissionPolicy with 100,000 empty ' +
  'resources; 200 merge patches of a 2.9 MiB string (server RSS before and after); 200 TLS connections sending nothing, counted closed after 34 s.';

export function exhaustionVerdicts(r: ExhaustionResults): Verdict[] {
  const t = targets;
  const verdicts: Verdict[] = r.lists.map((l) => ({
    name: `${l.format} list of ${r.objects}: longest /readyz wait`,
    value: l.maxProbeMs,
    target: t.exhaustionProbeMsMax,
    unit: 'ms' as const,
    atMost: true as const,
    pass: l.maxProbeMs <= t.exhaustionProbeMsMax,
    note: `idle server ${r.idleProbeMs.toFixed(0)} ms`,
  }));
  verdicts.push(
    {
      name: `${r.warnings.unknownFields} unknown fields answered`,
      value: r.warnings.ms,
      target: t.exhaustionAnswerMsMax,
      unit: 'ms',
      atMost: true,
      pass: r.warnings.ms <= t.exhaustionAnswerMsMax && r.warnings.status < 500,
      note: `HTTP ${r.warnings.status}, ${r.warnings.headerBytes} bytes of Warning headers; a valid body of the same size: ${r.warnings.baselineMs.toFixed(0)} ms`,
    },
    {
      name: `${r.validationError.items} invalid items answered`,
      value: r.validationError.ms,
      target: t.exhaustionAnswerMsMax,
      unit: 'ms',
      atMost: true,
      pass: r.validationError.ms <= t.exhaustionAnswerMsMax && r.validationError.statusBytes <= t.statusBytesMax && r.validationError.status < 500,
      note: `HTTP ${r.validationError.status}, a Status of ${r.validationError.statusBytes} bytes (at most ${t.statusBytesMax})`,
    },
    {
      name: `RSS growth over ${r.bigWrites.writes} writes of ${(r.bigWrites.valueBytes / 2 ** 20).toFixed(1)} MiB`,
      value: r.bigWrites.rssAfterMiB - r.bigWrites.rssBeforeMiB,
      target: t.bigWritesRssGrowthMiBMax,
      unit: 'times',
      atMost: true,
      pass: r.bigWrites.rssAfterMiB - r.bigWrites.rssBeforeMiB <= t.bigWritesRssGrowthMiBMax,
      note: `MiB: ${r.bigWrites.rssBeforeMiB.toFixed(0)} → ${r.bigWrites.rssAfterMiB.toFixed(0)}`,
    },
    {
      name: `idle TLS connections closed after ${r.idleTls.waitedMs / 1000} s`,
      value: r.idleTls.closed,
      target: r.idleTls.connections,
      unit: 'times',
      pass: r.idleTls.closed === r.idleTls.connections,
    },
  );
  return verdicts;
}

export function formatExhaustion(r: ExhaustionResults): string[] {
  return [
    `  exhaustion: /readyz on the idle server waits at most ${r.idleProbeMs.toFixed(0)} ms`,
    ...r.lists.map(
      (l) => `    ${l.format} list of ${r.objects}: ${l.listMs.toFixed(0)} ms, ${(l.bytes / 2 ** 20).toFixed(1)} MiB; /readyz waited at most ${l.maxProbeMs.toFixed(0)} ms`,
    ),
    `    ${r.warnings.unknownFields} unknown fields (${(r.warnings.bodyBytes / 1024).toFixed(0)} KiB): HTTP ${r.warnings.status} in ${r.warnings.ms.toFixed(0)} ms ` +
      `(valid body of that size: ${r.warnings.baselineMs.toFixed(0)} ms), ${r.warnings.headerBytes} bytes of Warning headers`,
    `    VAP with ${r.validationError.items} empty resources (${(r.validationError.bodyBytes / 1024).toFixed(0)} KiB): HTTP ${r.validationError.status} in ` +
      `${r.validationError.ms.toFixed(0)} ms, Status ${r.validationError.statusBytes} bytes`,
    `    ${r.bigWrites.writes} patches of ${(r.bigWrites.valueBytes / 2 ** 20).toFixed(1)} MiB: RSS ${r.bigWrites.rssBeforeMiB.toFixed(0)} → ${r.bigWrites.rssAfterMiB.toFixed(0)} MiB`,
    `    ${r.idleTls.connections} silent TLS connections: ${r.idleTls.closed} closed after ${r.idleTls.waitedMs / 1000} s`,
  ];
}
