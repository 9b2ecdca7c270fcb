import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** How often the file is looked at again when no file event came (kube-apiserver polls its config files each minute). */
const pollIntervalMs = 60_000;
/** Events of one write (create, write, rename) are taken together. */
const settleMs = 100;

/**
 * Calls `changed` when a configuration file may have changed: on file events in its folder (so an editor's or a
 * Secret volume's replace-by-rename is seen) and once a minute; the callback compares contents itself.
 */
export class FileFollower {
  private watcher?: FSWatcher;
  private poller?: NodeJS.Timeout;
  private settle?: NodeJS.Timeout;

  constructor(
    private readonly path: string,
    private readonly changed: () => void,
  ) {}

  start(): void {
    const file = basename(this.path);
    this.watcher = watch(dirname(this.path), (_event, name) => {
      if (name === null || name === file) this.schedule();
    });
    this.watcher.on('error', (err) => console.error(`kapi: watching ${this.path}: ${err.message}`));
    this.poller = setInterval(this.changed, pollIntervalMs).unref();
  }

  stop(): void {
    clearInterval(this.poller);
    clearTimeout(this.settle);
    this.watcher?.close();
  }

  private schedule(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(this.changed, settleMs);
  }
}
