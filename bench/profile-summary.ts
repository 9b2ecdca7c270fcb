/**
 * Reads a V8 `.cpuprofile` and tells where the server's CPU time went: self time per function, self time per area
 * (project file, npm package, Node internal module, GC) and inclusive time of the project's own functions.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { originalLocation, repoRoot } from './source-location.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Hotspot {
  /** `file:function:line` (project code mapped to .ts) or `package:file:function`. */
  name: string;
  area: string;
  ms: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface ProfileSummary {
  file: string;
  wallMs: number;
  busyMs: number;
  idleMs: number;
  topSelf: Hotspot[];
  byArea: Hotspot[];
  /** Project functions by inclusive time (time on the stack), recursion counted once. */
  topInclusive: Hotspot[];
}

const idleFrames = new Set(['(idle)']);

export async function summarizeProfile(path: string, top = 25): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const labels = new Map<number, { name: string; area: string; project: boolean }>();
  const label = (id: number): { name: string; area: string; project: boolean } => {
    let l = labels.get(id);
    if (!l) {
      const frame = byId.get(id)!.callFrame;
      const caller = parent.get(id);
      // A native function (no script) is named after its JS caller, e.g. better-sqlite3's `run` under a transaction.
      if (!frame.url && !frame.functionName.startsWith('(') && caller !== undefined) {
        const c = label(caller);
        l = { name: `${frame.functionName || '(anonymous)'} [native] ← ${c.name}`, area: c.area, project: false };
      } else {
        l = describe(frame);
      }
      labels.set(id, l);
    }
    return l;
  };

  const self = new Map<string, { area: string; ms: number }>();
  const areas = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000; // delta i+1 is the time spent in sample i
    const id = profile.samples[i]!;
    const l = label(id);
    if (idleFrames.has(l.name)) {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const s = self.get(l.name) ?? { area: l.area, ms: 0 };
    s.ms += ms;
    self.set(l.name, s);
    areas.set(l.area, (areas.get(l.area) ?? 0) + ms);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const pl = label(cur);
      if (pl.project && !seen.has(pl.name)) {
        seen.add(pl.name);
        inclusive.set(pl.name, (inclusive.get(pl.name) ?? 0) + ms);
      }
    }
  }
  const share = (ms: number) => (busyMs > 0 ? ms / busyMs : 0);
  return {
    file: relative(repoRoot, path),
    wallMs: (profile.endTime - profile.startTime) / 1000,
    busyMs,
    idleMs,
    topSelf: [...self]
      .map(([name, s]) => ({ name, area: s.area, ms: s.ms, share: share(s.ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
    byArea: [...areas]
      .map(([area, ms]) => ({ name: area, area, ms, share: share(ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
    topInclusive: [...inclusive]
      .map(([name, ms]) => ({ name, area: name.split(':')[0]!, ms, share: share(ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
  };
}

function describe(f: CallFrame): { name: string; area: string; project: boolean } {
  const fn = f.functionName || '(anonymous)';
  if (!f.url) return { name: fn, area: fn.startsWith('(') ? fn : '(native)', project: false };
  if (f.url.startsWith('node:')) {
    const area = f.url.split('/').slice(0, 3).join('/'); // node:internal/http, node:internal/tls, node:_http_server...
    return { name: `${f.url}:${fn}:${f.lineNumber + 1}`, area, project: false };
  }
  const path = f.url.startsWith('file:') ? fileURLToPath(f.url) : f.url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    const pkg = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    const file = rest.slice(pkg.split('/').length).join('/');
    return { name: `${pkg}:${file}:${fn}:${f.lineNumber + 1}`, area: `npm:${pkg}`, project: false };
  }
  const loc = originalLocation(path, f.lineNumber, f.columnNumber);
  return { name: `${loc.file}:${fn}:${loc.line}`, area: loc.file, project: !loc.file.startsWith('..') };
}

/** The summary as plain text; with `operations` (requests served in the profiled window) also time per operation. */
export function formatProfileSummary(s: ProfileSummary, operations?: number): string {
  const perOp = (ms: number) => (operations ? `${((1000 * ms) / operations).toFixed(1).padStart(7)} µs/op` : '');
  const row = (h: Hotspot) => `  ${h.ms.toFixed(0).padStart(7)} ms ${(100 * h.share).toFixed(1).padStart(5)}%${perOp(h.ms)}  ${h.name}`;
  return [
    `profile ${s.file}: wall ${(s.wallMs / 1000).toFixed(1)} s, busy ${(s.busyMs / 1000).toFixed(1)} s, idle ${(s.idleMs / 1000).toFixed(1)} s` +
      (operations ? `, ${operations} operations (busy ${perOp(s.busyMs).trim()})` : '') +
      '\n (wall-clock samples: on a busy machine, time the server was descheduled lands in whatever it was running, often writev)',
    ' self time by area:',
    ...s.byArea.slice(0, 15).map(row),
    ' top functions by self time:',
    ...s.topSelf.map(row),
    ' project functions by inclusive time:',
    ...s.topInclusive.slice(0, 20).map(row),
  ].join('\n');
}
