// A long-running kubectl (e.g. `kubectl get -w`) whose stdout a test reads line by line while it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './kapi-process.js';

export interface KubectlStreamTarget {
  /** Kubeconfig file given to kubectl as KUBECONFIG. */
  kubeconfig: string;
  /** HOME given to kubectl (its ~/.kube/cache). */
  home: string;
}

export interface KubectlStream {
  /** Complete stdout lines received so far (without the newline). */
  readonly lines: string[];
  /** Everything written to stderr so far. */
  stderr(): string;
  /**
   * Resolves with the index of the first stdout line at or after `from` (default 0) that matches `re`, waiting for it
   * up to `timeoutMs`; rejects with the output so far on timeout or when kubectl exits first.
   */
  waitForLine(re: RegExp, opts?: { from?: number; timeoutMs?: number }): Promise<number>;
  /** Resolves when kubectl has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills kubectl (SIGTERM, then SIGKILL after 2 s) and resolves once it exited. */
  kill(): Promise<void>;
  /** stdout and stderr so far, for assertion messages. */
  describe(): string;
}

const streams = new Set<KubectlStream>();

/** Kills every kubectl started by `spawnKubectl` that is still running (use in `test.after.always`). */
export async function killAllKubectlStreams(): Promise<void> {
  await Promise.all([...streams].map((s) => s.kill()));
}

process.on('exit', () => {
  for (const s of streams) void s.kill();
});

/** Starts `kubectl ARGS` (no --request-timeout: watches must outlive it) with the target's KUBECONFIG and HOME. */
export function spawnKubectl(target: KubectlStreamTarget, args: string[]): KubectlStream {
  const child: ChildProcess = spawn('kubectl', args, {
    cwd: repoRoot,
    env: { ...process.env, KUBECONFIG: target.kubeconfig, HOME: target.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  let done = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    wake();
  });
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (err) => {
      stderr += `\n[spawn error: ${err.message}]`;
      done = true;
      wake();
      resolve({ code: null, signal: null });
    });
    child.once('close', (code, signal) => {
      if (partial) lines.push(partial);
      partial = '';
      done = true;
      wake();
      resolve({ code, signal });
    });
  });

  const describe = () => `kubectl ${args.join(' ')}\n--- stdout ---\n${lines.join('\n')}${partial ? `\n${partial}` : ''}\n--- stderr ---\n${stderr}`;

  const stream: KubectlStream = {
    lines,
    stderr: () => stderr,
    exited,
    describe,
    waitForLine(re, opts = {}) {
      const from = opts.from ?? 0;
      const timeoutMs = opts.timeoutMs ?? 10_000;
      return new Promise<number>((resolve, reject) => {
        const check = () => {
          for (let i = from; i < lines.length; i++) {
            if (re.test(lines[i]!)) {
              cleanup();
              resolve(i);
              return;
            }
          }
          if (done) {
            cleanup();
            reject(new Error(`kubectl exited without printing a line matching ${re} (from line ${from})\n${describe()}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no line matching ${re} (from line ${from}) within ${timeoutMs}ms\n${describe()}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async kill() {
      if (!done) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(timer);
      }
      streams.delete(stream);
    },
  };
  streams.add(stream);
  return stream;
}
