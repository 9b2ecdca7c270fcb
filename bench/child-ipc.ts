/**
 * The child side of a benchmark server process: read its settings, start, tell the parent where it listens, answer
 * the parent's requests (CPU time so far; start/stop a CPU profile of exactly the measured window; heap in use after a
 * full GC when started with `--expose-gc`; the longest event-loop delay since last asked), and shut down cleanly when asked.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Sent by the child once it accepts connections. */
export interface ReadyMessage {
  type: 'ready';
  url: string;
}

/** What the parent can ask of the child. */
export type ChildCall =
  | { method: 'cpuMicros' }
  | { method: 'startProfile' }
  | { method: 'stopProfile'; path: string }
  | { method: 'heapUsedAfterGc' }
  | { method: 'maxEventLoopDelay' }
  | { method: 'stop' };

/** A call from the parent, numbered so the reply can be matched. */
export interface CallMessage<C = ChildCall> {
  type: 'call';
  id: number;
  call: C;
}

export interface ReplyMessage {
  type: 'reply';
  id: number;
  value?: unknown;
  error?: string;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The JSON settings the parent passed as the first argument. */
export function childSettings<T>(): T {
  const raw = process.argv[2];
  if (!raw) throw new Error('missing settings argument (JSON)');
  return JSON.parse(raw) as T;
}

/** Starts the server, reports ready over IPC, serves the parent's calls, and exits 0 after `stop` or when the parent goes away. */
export async function serveUntilStopped(start: () => Promise<RunningServer>): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error('a benchmark server must be started by bench/run.js (no IPC channel)');
  const server = await start();
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  let session: Session | undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await server.close();
      process.exit(0);
    } catch (err) {
      console.error('bench server: close failed:', err);
      process.exit(1);
    }
  };
  const handle = async (call: ChildCall): Promise<unknown> => {
    switch (call.method) {
      case 'cpuMicros': {
        const u = process.cpuUsage();
        return u.user + u.system;
      }
      case 'startProfile':
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        return undefined;
      case 'stopProfile': {
        if (!session) throw new Error('no profile was started');
        const { profile } = await session.post('Profiler.stop');
        session.disconnect();
        session = undefined;
        await writeFile(call.path, JSON.stringify(profile));
        return undefined;
      }
      case 'heapUsedAfterGc':
        return heapUsedAfterGc();
      case 'maxEventLoopDelay': {
        const maxMs = loopDelay.max / 1e6;
        loopDelay.reset();
        return maxMs;
      }
      case 'stop':
        void stop();
        return undefined;
    }
  };
  process.on('message', (m: CallMessage) => {
    if (m?.type !== 'call') return;
    handle(m.call).then(
      (value) => send({ type: 'reply', id: m.id, value } satisfies ReplyMessage),
      (err: unknown) => send({ type: 'reply', id: m.id, error: String(err) } satisfies ReplyMessage),
    );
  });
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  send({ type: 'ready', url: server.url } satisfies ReadyMessage);
}

/**
 * `process.memoryUsage().heapUsed` after full GCs (the child must run with `--expose-gc`). Two collections with a
 * macrotask between them, so objects freed by finalizers or pending callbacks of the first are gone too.
 */
async function heapUsedAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('heapUsedAfterGc needs the server child started with --expose-gc');
  gc();
  await new Promise((r) => setImmediate(r));
  gc();
  return process.memoryUsage().heapUsed;
}
