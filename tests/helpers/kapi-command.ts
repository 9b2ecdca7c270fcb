import { spawn } from 'node:child_process';
import { repoRoot } from './kapi-process.js';

export interface KapiCommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/kapi ARGS` from the repository's root and collects its output. */
export function runKapiCommand(args: string[]): Promise<KapiCommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/kapi', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
