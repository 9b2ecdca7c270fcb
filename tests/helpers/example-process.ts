// Runs one of examples/ (compiled) as a child process on a free port, for the examples' own tests.
import type { ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { repoPath } from './kapi-process.js';

/** Starts `dist/examples/<name>/server.js` with PORT=0, stops it at the test's end; resolves with the URL it prints. */
export function startExample(t: ExecutionContext, name: string): Promise<string> {
  const child = spawn(process.execPath, [repoPath(`dist/examples/${name}/server.js`)], { env: { ...process.env, PORT: '0' } });
  t.teardown(async () => {
    child.kill('SIGINT');
    if (child.exitCode === null) await once(child, 'exit');
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  return new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`example exited with ${code}: ${out}`)));
  });
}
