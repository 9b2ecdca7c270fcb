import { EtcdKV } from '../../plugins/storage/etcd/etcd-kv.js';
import { useEtcd } from '../helpers/use-etcd.js';
import { kvConformance } from './kv-conformance.js';

/**
 * The storage contract against a real etcd. All cases share this file's etcd, each under a key prefix of its own.
 * etcd's revision is cluster-wide and the suite asserts exact revisions, so the cases take turns (in declaration
 * order, which also keeps the compaction cases, whose compaction is cluster-wide too, after the ones reading history).
 */
const etcd = useEtcd();
let cases = 0;
let turn: Promise<void> = Promise.resolve();

kvConformance('etcd', async () => {
  const previous = turn;
  let release!: () => void;
  turn = new Promise<void>((resolve) => (release = resolve));
  await previous;
  const prefix = `/conformance/${String(++cases).padStart(4, '0')}`;
  const kv = new EtcdKV({ endpoints: etcd().endpoints, prefix, keyRoot: '' });
  return {
    kv,
    cleanup: async () => {
      await kv.close();
      release();
    },
  };
});
