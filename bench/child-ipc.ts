/**
 * The child side of a benchmark server process: read its settings, start, tell the parent where it listens, and
 * shut down cleanly when asked (a clean `process.exit` is what makes `--cpu-prof` write its profile).
 */

/** Sent by the child once it accepts connections. */
export interface ReadyMessage {
  type: 'ready';
  url: string;
}

/** Sent by the parent to end the child. */
export interface StopMessage {
  type: 'stop';
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

/** Starts the server, reports ready over IPC, and exits 0 after a stop message or when the parent goes away. */
export async function serveUntilStopped(start: () => Promise<RunningServer>): Promise<void> {
  if (!process.send) throw new Error('a benchmark server must be started by bench/run.js (no IPC channel)');
  const server = await start();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('bench server: close failed:', err);
        process.exit(1);
      },
    );
  };
  process.on('message', (m: StopMessage) => {
    if (m?.type === 'stop') stop();
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.send({ type: 'ready', url: server.url } satisfies ReadyMessage);
}
