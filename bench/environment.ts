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
  /** 1-minute load average when the run started: above the core count, other work competes and figures are noisy. */
  loadAverage1m: number;
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
  };
}
