/**
 * Pinning the server under test and an external load generator (wrk) to two different CPUs with `taskset` (util-linux),
 * so that neither takes the other's core: on a 2-core machine the server then has a core to itself, and a load
 * generator that is not the limit shows as well under a full core.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { commandOnPath } from './command-on-path.js';

export interface CpuPinning {
  server: number;
  loadGenerator: number;
}

/** The first two CPUs this process may run on, one for the server and one for the load generator; undefined when there are fewer or taskset is missing. */
export async function chooseCpuPinning(): Promise<CpuPinning | undefined> {
  if (!(await commandOnPath('taskset'))) return undefined;
  const cpus = parseCpuList((await readFile('/proc/self/status', 'utf8').catch(() => '')).match(/^Cpus_allowed_list:\s*(\S+)/m)?.[1] ?? '');
  return cpus.length >= 2 ? { server: cpus[0]!, loadGenerator: cpus[1]! } : undefined;
}

/** Pins every thread of process `pid` (and the threads it starts later) to `cpu`. */
export async function pinProcess(pid: number, cpu: number): Promise<void> {
  await promisify(execFile)('taskset', ['--all-tasks', '--cpu-list', '--pid', String(cpu), String(pid)]);
}

/** The kernel's CPU list format, e.g. `0-1,4,6-7` → [0, 1, 4, 6, 7]. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.split(',').filter(Boolean)) {
    const [from, to = from] = part.split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to)) return [];
    for (let c = from!; c <= to!; c++) cpus.push(c);
  }
  return cpus;
}
