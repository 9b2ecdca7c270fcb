import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CallMessage, ChildCall, ReadyMessage, ReplyMessage } from './child-ipc.js';

/** What a measurement may ask of the server under test. */
export interface ServerProbe {
  /** The server process's CPU time (user + system) so far, microseconds. */
  cpuMicros(): Promise<number>;
  /** Starts a V8 CPU profile in the server (the same sampler `--cpu-prof` uses, limited to the measured window). */
  startProfile(): Promise<void>;
  /** Stops it and writes the `.cpuprofile` to `path`. */
  stopProfile(path: string): Promise<void>;
}

export interface ServerProcess extends ServerProbe {
  url: string;
  pid: number;
  /** The server's V8 heap in use after a full GC, bytes (needs `execArgv: ['--expose-gc']`). */
  heapUsedAfterGc(): Promise<number>;
  /** The longest the server's event loop was held since the last call (or its start), ms (perf_hooks monitorEventLoopDelay). */
  maxEventLoopDelayMs(): Promise<number>;
  /** Asks the child to close and waits until it has exited. */
  stop(): Promise<void>;
}

const startTimeoutMs = 30_000;
const stopTimeoutMs = 15_000;

export interface ServerProcessOptions {
  /** Node options of the child, e.g. `['--expose-gc']`. */
  execArgv?: string[];
}

/**
 * Forks `dist/bench/<script>` as its own Node process (so the server never shares an event loop with autocannon),
 * passes `settings` as JSON and waits for it to report where it listens.
 */
export async function startServerProcess(script: string, settings: unknown, options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = fork(path, [JSON.stringify(settings)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...(options.execArgv ?? [])],
  });
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
  const call = childCaller<ChildCall>(child);
  return {
    url,
    pid: child.pid!,
    cpuMicros: async () => (await call({ method: 'cpuMicros' })) as number,
    startProfile: async () => void (await call({ method: 'startProfile' })),
    stopProfile: async (path) => void (await call({ method: 'stopProfile', path })),
    heapUsedAfterGc: async () => (await call({ method: 'heapUsedAfterGc' })) as number,
    maxEventLoopDelayMs: async () => (await call({ method: 'maxEventLoopDelay' })) as number,
    stop: () => stopChild(child, exited, call, script),
  };
}

/** Runs `body` against a freshly started server child and always stops the child afterwards. */
export async function withServer<S, T>(
  script: string,
  settings: S,
  body: (url: string, server: ServerProcess) => Promise<T>,
  options: ServerProcessOptions = {},
): Promise<T> {
  const server = await startServerProcess(script, settings, options);
  try {
    return await body(server.url, server);
  } finally {
    await server.stop();
  }
}

/** Numbered request/reply calls to a child process over IPC (the child answers `{type:'reply', id, value|error}`). */
export function childCaller<C>(child: ChildProcess, what = 'server process'): (call: C) => Promise<unknown> {
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: ReplyMessage) => {
    if (m?.type !== 'reply') return;
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p?.reject(new Error(m.error));
    else p?.resolve(m.value);
  });
  child.once('exit', () => {
    for (const p of pending.values()) p.reject(new Error(`${what} exited`));
    pending.clear();
  });
  return (call) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ type: 'call', id, call } satisfies CallMessage<C>);
    });
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, call: (c: ChildCall) => Promise<unknown>, script: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => {
    console.error(`${script} (pid ${child.pid}) did not exit within ${stopTimeoutMs} ms; killing it`);
    child.kill('SIGKILL');
  }, stopTimeoutMs);
  call({ method: 'stop' }).catch(() => undefined); // the reply may not arrive before the child exits
  const code = await exited;
  clearTimeout(timer);
  if (code !== 0) console.error(`${script} (pid ${child.pid}) exited with code ${code}`);
}
