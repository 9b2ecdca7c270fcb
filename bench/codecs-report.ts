/** The codecs group's verdicts and lines (bench/codecs.ts). */
import { targets } from './config.js';
import type { CodecFanoutFigures, CodecListFigures, CodecResults } from './codecs.js';
import type { Verdict } from './report.js';

export const codecsMethod =
  'Codecs: one data dir with 5,000 widgets (labels, annotations, spec; the CRD carries protobuf field numbers); lists timed from request ' +
  'to last byte over one keep-alive connection, formats interleaved, median after warm-up runs (the first list of each format, before any ' +
  'item encoding is kept, is shown apart); fan-out: per format a fresh kapi process ' +
  'with 1,000 watches in a child process counting events by their framing, while w1 is merge-patched from 8 lanes as fast as answered. ' +
  'Every list answer is decoded without kapi\'s code and its items counted.';

/** Per binary format and measurement: speed against JSON's (the value), and pass only if it is also smaller on the wire. */
export function codecsVerdicts(r: Omit<CodecResults, 'profiles'>): Verdict[] {
  const min = targets.codecSpeedOverJsonMin;
  const verdicts: Verdict[] = [];
  const judge = <F extends CodecListFigures | CodecFanoutFigures>(what: string, rows: F[], speed: (f: F) => number, bytes: (f: F) => number) => {
    const json = rows.find((f) => f.format === 'JSON');
    if (!json) return;
    for (const f of rows) {
      if (f === json) continue;
      const ratio = speed(f) / speed(json);
      const size = bytes(f) / bytes(json);
      const notes = [`${(100 * size).toFixed(0)}% of JSON's bytes`, ...f.problems, ...json.problems];
      verdicts.push({
        name: `${f.format} ${what} / JSON`,
        value: ratio,
        target: min,
        unit: 'ratio',
        pass: ratio >= min && size < 1 && f.problems.length === 0 && json.problems.length === 0,
        note: notes.join('; '),
      });
    }
  };
  judge('list', r.list, (f) => f.listsPerSec, (f) => f.bytes);
  judge('watch', r.fanout, (f) => f.eventsPerSec, (f) => f.bytesPerEvent);
  return verdicts;
}

export function formatCodecs(r: Omit<CodecResults, 'profiles'>): string[] {
  return [
    `  list of ${r.objects} widgets:`,
    ...r.list.map(
      (f) =>
        `    ${f.format.padEnd(9)} ${(f.bytes / 1024).toFixed(0).padStart(6)} KiB   ${f.medianMs.toFixed(1).padStart(6)} ms (${f.listsPerSec.toFixed(1)} lists/s)   ` +
        `server CPU ${f.serverCpuMedianMs.toFixed(1)} ms   first list ${f.firstMs.toFixed(1)} ms${f.problems.length ? `   PROBLEMS: ${f.problems.join('; ')}` : ''}`,
    ),
    `  watch fan-out:`,
    ...r.fanout.map(
      (f) =>
        `    ${f.format.padEnd(9)} ${f.eventsPerSec.toFixed(0).padStart(7)} events/s   ${f.bytesPerEvent.toFixed(0).padStart(5)} bytes/event   ` +
        `${f.serverMicrosPerEvent.toFixed(1)} µs server CPU/event   (${f.writes} writes × ${f.watchers} watches, ${f.delivered} delivered)` +
        `${f.problems.length ? `   PROBLEMS: ${f.problems.join('; ')}` : ''}`,
    ),
  ];
}
