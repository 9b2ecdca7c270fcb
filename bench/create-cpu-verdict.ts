/** The verdict on kapi's own CPU per create (issue #25 item 8), shared by the core (SQLite) and etcd groups. */
import type { Figures } from './load.js';
import type { Verdict } from './report.js';

/**
 * Server CPU (user + system of kapi's process, over the measured window) per 201 against `maxMicros`. A create load
 * with failures, or without CPU accounting, misses: its figure would not be the cost of a create.
 */
export function createCpuVerdict(name: string, create: Figures, maxMicros: number): Verdict {
  const micros = create.serverCpu?.microsPerOk;
  const notes = [
    ...(micros === undefined ? ['the server\'s CPU time could not be read'] : []),
    ...(create.non2xx || create.errors ? [`${create.non2xx} non-2xx and ${create.errors} errors among the creates`] : []),
  ];
  return {
    name,
    value: micros ?? Number.NaN,
    target: maxMicros,
    unit: 'µs',
    atMost: true,
    pass: micros !== undefined && micros <= maxMicros && notes.length === 0,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}
