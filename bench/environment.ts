/** The facts about the machine that the figures depend on, recorded next to them. */
import { statfs } from 'node:fs/promises';
import os from 'node:os';

export interface Environment {
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  /** File system holding the SQLite data dir: fsync cost decides the durable create rate. */
  dataDirFs: string;
  /** 1-minute load average when the run started (lags: includes a bench that just ended). */
  loadAverage1m: number;
  /** Share of all cores busy during the second before the run: other work competing with the bench makes figures noisy. */
  busyBeforeRun: number;
}

/** statfs `type` magic numbers of the usual Linux file systems. */
const fsNames: Record<number, string> = {
  0xef53: 'ext4',
  0x01021994: 'tmpfs',
  0x794c7630: 'overlayfs',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x2fc12fc1: 'zfs',
  0x6969: 'nfs',
};

export async function describeEnvironment(dataDir: string): Promise<Environment> {
  const busyBeforeRun = await busyShare(1000);
  let dataDirFs = 'unknown';
  try {
    const type = (await statfs(dataDir)).type;
    dataDirFs = fsNames[type] ?? `0x${type.toString(16)}`;
  } catch {
    // statfs is not available everywhere; the figure just goes unexplained.
  }
  return {
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    dataDirFs,
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
    busyBeforeRun: Math.round(busyBeforeRun * 100) / 100,
  };
}

/** The kernel's counters of all cores together, milliseconds: time not idle, and all time. */
export function machineCpuMs(): { busy: number; all: number } {
  let idle = 0;
  let all = 0;
  for (const { times: t } of os.cpus()) {
    idle += t.idle;
    all += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { busy: all - idle, all };
}

/** Share of all cores' time not idle over `ms`. */
async function busyShare(ms: number): Promise<number> {
  const a = machineCpuMs();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineCpuMs();
  return b.all > a.all ? (b.busy - a.busy) / (b.all - a.all) : 0;
}
