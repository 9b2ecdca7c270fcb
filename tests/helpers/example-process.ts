// Runs one of examples/ (compiled) as a child process on a free port, for the examples' own tests.
import type { ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { repoPath } from './kapi-process.js';

export interface ExampleProcess {
  url: string;
  /** Stops the example (SIGINT) and resolves once it exited. */
  stop(): Promise<void>;
}

/** Starts `dist/examples/<name>/server.js` with PORT=0, stops it at the test's end; resolves with the URL it prints. */
export async function startExample(t: ExecutionContext, name: string, env: Record<string, string> = {}): Promise<string> {
  const example = startExampleProcess(name, env);
  t.teardown(() => example.then((e) => e.stop(), () => undefined));
  return (await example).url;
}

/**
 * Starts `dist/examples/<name>/server.js` with PORT=0 and `env` (for a server shared by a file's tests: stop it in
 * `test.after.always`); resolves once it printed the URL it serves on.
 */
export function startExampleProcess(name: string, env: Record<string, string> = {}): Promise<ExampleProcess> {
  const child = spawn(process.execPath, [repoPath(`dist/examples/${name}/server.js`)], { env: { ...process.env, PORT: '0', ...env } });
  const stop = async () => {
    child.kill('SIGINT');
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  };
  let out = '';
  child.stdout.setEncoding('utf8');
  return new Promise<ExampleProcess>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const m = /serving on (https?:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, stop });
    });
    child.once('exit', (code) => reject(new Error(`example exited with ${code}: ${out}`)));
  });
}
