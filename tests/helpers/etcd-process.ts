/**
 * Real etcd servers for tests: Debian's `etcd-server` (binary `etcd`) on free loopback ports, data in a temporary
 * directory (in /dev/shm when there is one: fast fsyncs, and the data still outlives a killed process).
 *
 *   const etcd = await startEtcd();                 // one member
 *   const cluster = await startEtcdCluster(3);       // three members
 *   await etcd.members[0].stop(); await etcd.members[0].start();
 *   await etcd.close();                              // stops every member, removes the data
 *
 * For one etcd shared by the tests of a file, see use-etcd.ts. No ava here: the benchmark starts etcd too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { killOnWorkerExit } from './worker-exit.js';

const healthyTimeoutMs = 30_000;
const stopTimeoutMs = 10_000;

export interface EtcdMember {
  readonly name: string;
  /** The process id while running. */
  readonly pid: number | undefined;
  /** `http://127.0.0.1:PORT` (`https://` with TLS). */
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  readonly running: boolean;
  /** Starts the member again on its data (no-op when running); resolves once it answers as healthy. */
  start(): Promise<void>;
  /** SIGTERM (or `signal`), resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** The member's log so far (for failure messages). */
  log(): string;
}

export interface EtcdCluster {
  readonly members: EtcdMember[];
  /** Every member's client URL. */
  readonly endpoints: string[];
  /** The member that is the Raft leader now. */
  leader(): Promise<EtcdMember>;
  /** Stops every member and removes the data. */
  close(): Promise<void>;
}

/** A free loopback port (the kernel's pick; free when returned, which is enough on a test machine). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function dataRoot(parent?: string): string {
  return mkdtempSync(join(parent ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), 'kapi-etcd-'));
}

export interface StartEtcdOptions {
  /** Where the data directories go (default /dev/shm, else the OS temp dir); e.g. a disk for realistic fsyncs. */
  dataDir?: string;
  /** Serve clients over TLS with this certificate (PEM files), and require client certificates signed by `caFile`. */
  tls?: { caFile: string; certFile: string; keyFile: string };
}

/** One etcd member's process: `start` spawns it on its data dir with the cluster's flags. */
class Member implements EtcdMember {
  private child?: ChildProcess;
  private exited?: Promise<void>;

  constructor(
    readonly name: string,
    readonly clientUrl: string,
    readonly peerUrl: string,
    readonly dataDir: string,
    private readonly logFile: string,
    private readonly initialCluster: string,
    private readonly tls?: StartEtcdOptions['tls'],
  ) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const out = openSync(this.logFile, 'a');
    const child = spawn(
      'etcd',
      [
        '--name', this.name,
        '--data-dir', this.dataDir,
        '--listen-client-urls', this.clientUrl,
        '--advertise-client-urls', this.clientUrl,
        '--listen-peer-urls', this.peerUrl,
        '--initial-advertise-peer-urls', this.peerUrl,
        '--initial-cluster', this.initialCluster,
        '--initial-cluster-token', `kapi-test-${process.pid}`,
        '--initial-cluster-state', 'new',
        // Short Raft timers: tests wait for elections (after a start or a stopped leader) a fraction of the default.
        '--heartbeat-interval', '50',
        '--election-timeout', '500',
        '--logger', 'zap',
        '--log-outputs', 'stderr',
        ...(this.tls
          ? ['--cert-file', this.tls.certFile, '--key-file', this.tls.keyFile, '--trusted-ca-file', this.tls.caFile, '--client-cert-auth']
          : []),
      ],
      { stdio: ['ignore', out, out] },
    );
    closeSync(out);
    this.child = child;
    killOnWorkerExit(child);
    let spawnError: Error | undefined;
    this.exited = new Promise((resolve) => {
      const gone = () => {
        if (this.child === child) this.child = undefined;
        resolve();
      };
      child.once('exit', gone);
      // No etcd binary: a failure with the fix, never a skipped test.
      child.once('error', (err) => {
        spawnError = new Error(`cannot run etcd (${err.message}): install Debian's etcd-server (apt-get install etcd-server)`);
        gone();
      });
    });
    await this.waitHealthy(() => spawnError);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  log(): string {
    try {
      return readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  /** Until `/health` says true (etcd 3.4: the member has a leader and answers reads). */
  private async waitHealthy(spawnError: () => Error | undefined): Promise<void> {
    const deadline = Date.now() + healthyTimeoutMs;
    while (Date.now() < deadline) {
      const err = spawnError();
      if (err) throw err;
      if (!this.child) throw new Error(`etcd ${this.name} exited during start:\n${this.log().slice(-3000)}`);
      if (await healthy(this.clientUrl, this.tls)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`etcd ${this.name} not healthy after ${healthyTimeoutMs} ms:\n${this.log().slice(-3000)}`);
  }
}

function healthy(clientUrl: string, tls?: StartEtcdOptions['tls']): Promise<boolean> {
  return new Promise((resolve) => {
    const options = tls
      ? { timeout: 1000, ca: readFileSync(tls.caFile), cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }
      : { timeout: 1000 };
    const req = (tls ? https : http).get(`${clientUrl}/health`, options, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(res.statusCode === 200 && /"health":\s*"true"/.test(body)));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

/** Starts a cluster of `size` members (each its own process, ports and data dir); resolves once every one is healthy. */
export async function startEtcdCluster(size = 3, opts: StartEtcdOptions = {}): Promise<EtcdCluster> {
  const root = dataRoot(opts.dataDir);
  // A port taken by someone else between the pick and etcd's bind fails the start: try again with new ports.
  for (let attempt = 1; ; attempt++) {
    const names = Array.from({ length: size }, (_, i) => `m${i}`);
    const ports = await Promise.all(Array.from({ length: size * 2 }, () => freePort()));
    const peerUrls = names.map((_, i) => `http://127.0.0.1:${ports[size + i]}`);
    const initialCluster = names.map((n, i) => `${n}=${peerUrls[i]}`).join(',');
    const scheme = opts.tls ? 'https' : 'http';
    const members = names.map(
      (n, i) =>
        new Member(
          n,
          `${scheme}://127.0.0.1:${ports[i]}`,
          peerUrls[i]!,
          join(root, `${attempt}-${n}`),
          join(root, `${attempt}-${n}.log`),
          initialCluster,
          opts.tls,
        ),
    );
    try {
      await Promise.all(members.map((m) => m.start()));
      return cluster(members, root);
    } catch (err) {
      await Promise.all(members.map((m) => m.stop('SIGKILL')));
      if (attempt >= 3) {
        rmSync(root, { recursive: true, force: true });
        throw err;
      }
    }
  }
}

/** Starts a single-member etcd. */
export function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdCluster> {
  return startEtcdCluster(1, opts);
}

function cluster(members: Member[], root: string): EtcdCluster {
  return {
    members,
    endpoints: members.map((m) => m.clientUrl),
    async leader() {
      for (const m of members) {
        if (!m.running) continue;
        const client = new Etcd3({ hosts: m.clientUrl });
        try {
          const status = await client.maintenance.status();
          if (status.leader === status.header.member_id) return m;
        } catch {
          // not answering: ask the next one
        } finally {
          client.close();
        }
      }
      throw new Error('no etcd member reports itself as the leader');
    },
    async close() {
      await Promise.all(members.map((m) => m.stop()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
