import { watch } from 'node:fs';
import { dirname } from 'node:path';
import { log } from '../log/logger.js';

/**
 * How often `onChange` is called when no file event came (events can be missed, e.g. on network file systems):
 * kube-apiserver polls its config files each minute.
 */
const pollIntervalMs = 60_000;
/** Events of one write (create, write, rename) are taken together: `onChange` runs this long after the last. */
const settleMs = 100;

export interface FollowedFile {
  close(): void;
}

/**
 * Calls `onChange` when `file` may have changed: after events in its folder — the folder, not the file, so that a
 * file replaced by a rename or a symlink swap (editors, mounted ConfigMaps) is still followed — and once a minute.
 * `onChange` reads the file and decides whether anything changed.
 */
export function followFile(file: string, onChange: () => void): FollowedFile {
  return followFolder(dirname(file), onChange);
}

/** Calls `onChange` when something in the folder `dir` may have changed: after its file events and once a minute. */
export function followFolder(dir: string, onChange: () => void): FollowedFile {
  let settle: NodeJS.Timeout | undefined;
  const watcher = watch(dir, () => {
    clearTimeout(settle);
    settle = setTimeout(onChange, settleMs);
  });
  // the poll goes on without the events
  watcher.on('error', (err) => log.error(`watching ${dir}: ${err.message}`));
  const poller = setInterval(onChange, pollIntervalMs).unref();
  return {
    close() {
      clearInterval(poller);
      clearTimeout(settle);
      watcher.close();
    },
  };
}
