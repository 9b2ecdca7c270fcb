import { readFile } from 'node:fs/promises';

/**
 * CPU time (user + system) a process has used so far, microseconds, from /proc (Linux); undefined elsewhere or when
 * the process is gone. For processes the benchmark does not run itself, such as etcd.
 */
export async function processCpuMicros(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) — utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1e6) / clockTicksPerSecond;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const clockTicksPerSecond = 100;
