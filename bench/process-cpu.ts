import { readFile } from 'node:fs/promises';

/**
 * CPU time (user + system) a process has used so far, microseconds, from /proc (Linux); undefined elsewhere or when
 * the process is gone. For processes the benchmark does not run itself, such as etcd.
 */
export async function processCpuMicros(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  return (await statFields(pid))?.own;
}

/**
 * CPU time (user + system) of this process's children that have exited and been waited for (the kernel adds a child's
 * time to its parent's when the parent reaps it, as Node does on 'exit'), microseconds; undefined off Linux. For a load
 * generator run as a child process: the difference across its run is its CPU time, provided no other child ended then.
 */
export async function exitedChildrenCpuMicros(): Promise<number | undefined> {
  return (await statFields('self'))?.children;
}

async function statFields(pid: number | 'self'): Promise<{ own: number; children: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): utime, stime, cutime and cstime are the 14th to 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const micros = (i: number, j: number) => ((Number(fields[i]) + Number(fields[j])) * 1e6) / clockTicksPerSecond;
    return { own: micros(11, 12), children: micros(13, 14) };
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const clockTicksPerSecond = 100;
