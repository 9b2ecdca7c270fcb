import { watch } from 'node:fs';
import { dirname } from 'node:path';

export interface FollowFileOptions {
  /** How often `onChange` is called when no file event came (events can be missed, e.g. on network file systems). */
  pollIntervalMs: number;
  /** Events of one write (create, write, rename) are taken together: `onChange` runs this long after the last. */
  settleMs: number;
  /** A failure of the file events (the poll goes on). */
  onError(err: Error): void;
}

export interface FollowedFile {
  close(): void;
}

/**
 * Calls `onChange` when `file` may have changed: after events in its folder — the folder, not the file, so that a
 * file replaced by a rename or a symlink swap (editors, mounted ConfigMaps) is still followed — and at every poll.
 * `onChange` reads the file and decides whether anything changed.
 */
export function followFile(file: string, onChange: () => void, options: FollowFileOptions): FollowedFile {
  return followFolder(dirname(file), onChange, options);
}

/** Calls `onChange` when something in the folder `dir` may have changed: after its file events and at every poll. */
export function followFolder(dir: string, onChange: () => void, options: FollowFileOptions): FollowedFile {
  let settle: NodeJS.Timeout | undefined;
  const watcher = watch(dir, () => {
    clearTimeout(settle);
    settle = setTimeout(onChange, options.settleMs);
  });
  watcher.on('error', options.onError);
  const poller = setInterval(onChange, options.pollIntervalMs).unref();
  return {
    close() {
      clearInterval(poller);
      clearTimeout(settle);
      watcher.close();
    },
  };
}
