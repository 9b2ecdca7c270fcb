import type { ChildProcess } from 'node:child_process';

/** Child processes still running; killed if the test worker exits without stopping them. */
const children = new Set<ChildProcess>();
const cleanups: (() => void)[] = [];
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const child of children) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const fn of cleanups) fn();
  });
}

/** Kills `child` when the test worker exits while it still runs. */
export function killOnWorkerExit(child: ChildProcess): void {
  hookExit();
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Runs `fn` (synchronous) when the test worker exits, after the remaining children are killed. */
export function atWorkerExit(fn: () => void): void {
  hookExit();
  cleanups.push(fn);
}
