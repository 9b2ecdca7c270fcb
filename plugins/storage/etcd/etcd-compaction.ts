import type { EtcdCaller } from './etcd-call.js';
import type { EtcdClient } from './etcd-client.js';
import { versionIs } from './etcd-compare.js';

/** kube-apiserver's compaction key: outside every prefix, shared by every server on the etcd (compaction is global). */
export const compactRevKey = Buffer.from('compact_rev_key');

/**
 * Coordinates the periodic compaction of several servers on one etcd, as kube-apiserver does: the key's version
 * counts compaction rounds, its value is the revision of the last one. Each round, a server compacts only if the
 * version is still the one it saw at its previous round — i.e. nobody compacted since — and bumps it in the same
 * transaction. So when several servers tick in the same interval, the first one compacts and the others see the bumped
 * version, skip, and take it as their new reference for the next interval.
 *
 * The put bumps etcd's revision, which is why this is a separate path from `KVStore.compact` (which must not).
 */
export class CompactionRounds {
  /** The key's version at this server's last round (0: the key does not exist yet). */
  private version = 0;

  constructor(
    private readonly client: EtcdClient,
    private readonly caller: EtcdCaller,
  ) {}

  /**
   * One round: claims it and returns true when this server should compact to `revision`; false when another server
   * compacted since this one's last round. `onSeen` receives the revision the key says was last compacted.
   */
  async claim(revision: number, onSeen: (compacted: number) => void): Promise<boolean> {
    const res = await this.caller.call('write', (deadline) =>
      this.client.txn(
        {
          compare: [versionIs(compactRevKey, this.version)],
          success: [{ put: { key: compactRevKey, value: Buffer.from(String(revision)) } }],
          failure: [{ range: { key: compactRevKey } }],
        },
        deadline,
      ),
    );
    if (res.succeeded) {
      this.version += 1;
      return true;
    }
    const kv = res.responses[0]?.range?.kvs[0];
    this.version = kv?.version ?? 0;
    const seen = Number(kv?.value.toString() ?? 0);
    if (seen > 0) onSeen(seen);
    return false;
  }
}

/** The revision a put of the compaction key announces (the feed sees other servers' rounds this way). */
export function announcedCompaction(key: Buffer, value: Buffer): number | undefined {
  if (!key.equals(compactRevKey)) return undefined;
  const revision = Number(value.toString());
  return Number.isSafeInteger(revision) && revision > 0 ? revision : undefined;
}
