/**
 * Where KV keys live in etcd. kapi's keys start with `/registry/` (kube-apiserver's layout); in etcd that leading
 * `root` is replaced by the configured `prefix` (`--etcd-prefix`, default `/registry`, so the default layout is exactly
 * kube-apiserver's). Tests use `root: ''` and a prefix of their own, so several stores can share one etcd.
 *
 * etcd orders keys by bytes; KV keys order by their UTF-8 bytes too, so ranges map one to one.
 */
export class EtcdKeys {
  private readonly prefixBytes: Buffer;

  constructor(
    /** Prepended (in place of `root`) to every key in etcd. Starts with `/`, so it never covers `compact_rev_key`. */
    readonly prefix: string,
    /** The leading part of every KV key that `prefix` replaces. */
    readonly root = '',
  ) {
    if (!prefix.startsWith('/')) throw new TypeError(`etcd prefix ${JSON.stringify(prefix)} must start with "/"`);
    this.prefixBytes = Buffer.from(prefix, 'utf8');
  }

  /** The etcd key of a KV key. */
  toEtcd(key: string): Buffer {
    if (!key.startsWith(this.root)) throw new TypeError(`key ${JSON.stringify(key)} is not under ${JSON.stringify(this.root)}`);
    return Buffer.from(this.prefix + key.slice(this.root.length), 'utf8');
  }

  /** The KV key of an etcd key, or undefined for a key outside this store's prefix. */
  fromEtcd(key: Buffer): string | undefined {
    const p = this.prefixBytes;
    if (key.length < p.length || key.compare(p, 0, p.length, 0, p.length) !== 0) return undefined;
    return this.root + key.toString('utf8', p.length);
  }

  /** The etcd range `[key, range_end)` of the KV keys under `prefix`, strictly after `startAfterKey` when given. */
  range(prefix: string, startAfterKey?: string): { key: Buffer; rangeEnd: Buffer } {
    const base = this.toEtcd(prefix);
    const end = rangeEnd(base);
    // Keys after K start at K + "\0", the smallest key greater than K.
    if (startAfterKey !== undefined) {
      const after = this.toEtcd(startAfterKey);
      if (after.compare(base) >= 0) return { key: Buffer.concat([after, zeroByte]), rangeEnd: end };
    }
    return { key: base, rangeEnd: end };
  }
}

const zeroByte = Buffer.from([0]);

/** etcd's prefix range end: the prefix with its last byte below 0xff incremented ("\0": to the end of the keyspace). */
export function rangeEnd(prefix: Buffer): Buffer {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if (prefix[i]! < 0xff) {
      const end = Buffer.from(prefix.subarray(0, i + 1));
      end[i]! += 1;
      return end;
    }
  }
  return Buffer.from(zeroByte);
}
