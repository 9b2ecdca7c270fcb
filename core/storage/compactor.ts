import type { KVStore } from '../contracts/kv-store.js';
import type { Controller } from '../contracts/controller.js';
import { log } from '../../lib/log/logger.js';

/**
 * Compacts storage history the way kube-apiserver does for etcd: every interval, discard the history older than the
 * revision seen one interval ago. Reads and watches of older revisions then get 410 Gone / Expired. Stores that several
 * servers share implement `compactRound`, so that one of them compacts per interval rather than each.
 */
export class Compactor implements Controller {
  readonly name = 'storage-compactor';
  private timer?: NodeJS.Timeout;
  /** The revision seen at the previous tick: compacted at the next one. */
  private previous = 0;

  constructor(
    private readonly kv: KVStore,
    private readonly intervalMs: number,
  ) {}

  async start(): Promise<void> {
    if (this.intervalMs <= 0) return;
    this.previous = await this.kv.currentRevision();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    try {
      const current = await this.kv.currentRevision();
      if (this.previous > (await this.kv.compactedRevision())) {
        if (this.kv.compactRound) await this.kv.compactRound(this.previous);
        else await this.kv.compact(this.previous);
      }
      this.previous = current;
    } catch (err) {
      log.error(`compaction failed: ${(err as Error).message}`);
    }
  }
}
