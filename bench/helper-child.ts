/**
 * Helper child processes of a benchmark that are not servers (the watch clients): forked from dist/bench, ready when
 * they say so, then called over IPC; closing asks them to exit (a `{ method: 'close' }` call) and kills them if not.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CallMessage, ReplyMessage } from './child-ipc.js';
import { childCaller } from './server-process.js';

export interface HelperChild<C> {
  call(c: C): Promise<unknown>;
  close(): Promise<void>;
}

/** Forks `dist/bench/<script>` with `settings` (JSON) and waits until it reports ready. */
export async function startHelperChild<C>(script: string, settings: unknown, close: C): Promise<HelperChild<C>> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child: ChildProcess = fork(path, [JSON.stringify(settings)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${script} exited before it was ready (code ${code})`));
    child.once('exit', onExit);
    child.on('message', (m: { type?: string }) => {
      if (m?.type !== 'ready') return;
      child.off('exit', onExit);
      resolve();
    });
  });
  const call = childCaller<C>(child, script);
  return {
    call,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      call(close).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The child's side: answers the parent's calls with `handle`, exits when the parent goes away, then reports ready. */
export function answerCalls<C>(handle: (call: C) => Promise<unknown>): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('a benchmark helper must be started by bench/run.js (no IPC channel)');
  process.on('message', (m: CallMessage<C>) => {
    if (m?.type !== 'call') return;
    handle(m.call).then(
      (value) => send({ type: 'reply', id: m.id, value } satisfies ReplyMessage),
      (err: unknown) => send({ type: 'reply', id: m.id, error: String(err) } satisfies ReplyMessage),
    );
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}
