import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ReadyMessage, StopMessage } from './child-ipc.js';

/** Ask V8 for a CPU profile of the child, written to `dir/name` when it exits. */
export interface CpuProfile {
  dir: string;
  name: string;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** Asks the child to close and waits until it has exited (and written its profile). */
  stop(): Promise<void>;
}

const startTimeoutMs = 30_000;
const stopTimeoutMs = 15_000;

/**
 * Forks `dist/bench/<script>` as its own Node process (so the server never shares an event loop, nor a core's worth of
 * scheduling, with autocannon), passes `settings` as JSON and waits for it to report where it listens.
 */
export async function startServerProcess(script: string, settings: unknown, profile?: CpuProfile): Promise<ServerProcess> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const execArgv = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile.dir}`, `--cpu-prof-name=${profile.name}`] : [];
  const child = fork(path, [JSON.stringify(settings)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${script} did not become ready within ${startTimeoutMs} ms`)), startTimeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`));
    child.once('error', fail);
    child.once('exit', onExit);
    child.on('message', (m: ReadyMessage) => {
      if (m?.type !== 'ready') return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('error', fail);
      resolve(m.url);
    });
  });
  return { url, pid: child.pid!, stop: () => stopChild(child, exited, script) };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, script: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.send({ type: 'stop' } satisfies StopMessage);
  const timer = setTimeout(() => {
    console.error(`${script} (pid ${child.pid}) did not exit within ${stopTimeoutMs} ms; killing it`);
    child.kill('SIGKILL');
  }, stopTimeoutMs);
  const code = await exited;
  clearTimeout(timer);
  if (code !== 0) console.error(`${script} (pid ${child.pid}) exited with code ${code}`);
}
