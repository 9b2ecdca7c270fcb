/**
 * Compaction on etcd: kapi compacts etcd's history like kube-apiserver, and several kapi servers on one etcd compact
 * once per interval between them (the `compact_rev_key` transaction), not once each.
 */
import test from 'ava';
import { CompactedError } from '../../core/contracts/kv-store.js';
import { EtcdKV } from '../../plugins/storage/etcd/etcd-kv.js';
import { Etcd3 } from 'etcd3';
import { useEtcd } from '../helpers/use-etcd.js';
import { createNamespace, startTestServer } from '../helpers/test-server.js';

const etcd = useEtcd();
const b = (s: string) => new TextEncoder().encode(s);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function compactKeyVersion(): Promise<number> {
  const client = new Etcd3({ hosts: etcd().endpoints });
  try {
    const res = await client.kv.range({ key: Buffer.from('compact_rev_key') });
    return Number(res.kvs[0]?.version ?? 0);
  } finally {
    client.close();
  }
}

test.serial('compaction rounds of two stores: one compacts per round, the other skips it and learns how far', async (t) => {
  const one = new EtcdKV({ endpoints: etcd().endpoints, prefix: '/rounds/one', keyRoot: '' });
  const two = new EtcdKV({ endpoints: etcd().endpoints, prefix: '/rounds/two', keyRoot: '' });
  t.teardown(() => Promise.all([one.close(), two.close()]));
  const write = async (kv: EtcdKV, key: string) => (await kv.create(key, b(key))).revision;

  const r1 = await write(one, '/a');
  const r2 = await write(two, '/b');
  await one.compactRound(r1);
  t.is(await one.compactedRevision(), r1);
  await t.throwsAsync(one.get('/a', { revision: r1 - 1 }), { instanceOf: CompactedError });

  // Same round for the other store: it skips (history at r1 stays readable) and learns r1 from the compaction key.
  await two.compactRound(r2);
  t.is(await two.compactedRevision(), r1);
  t.is((await two.range('/', { revision: r1 })).revision, r1);

  // Next round: the other store is up to date with the key, so it compacts; the first one is now the stale one.
  const r3 = await write(two, '/c');
  await two.compactRound(r3);
  t.is(await two.compactedRevision(), r3);
  await t.throwsAsync(two.get('/c', { revision: r2 }), { instanceOf: CompactedError });
  const r4 = await write(one, '/d');
  await one.compactRound(r4);
  t.true((await one.compactedRevision()) >= r3);
  t.is((await one.get('/d', { revision: r3 + 1 })).revision, r3 + 1, 'r4 was not compacted in that round');

  // A read below what etcd compacted, on a store that did not hear of it, learns etcd's compacted revision.
  const three = new EtcdKV({ endpoints: etcd().endpoints, prefix: '/rounds/three', keyRoot: '' });
  t.teardown(() => three.close());
  const err = await t.throwsAsync(three.get('/x', { revision: 1 }), { instanceOf: CompactedError });
  t.true(err!.compactedRevision >= r3, `learned ${err!.compactedRevision}`);
});

test.serial('two servers compacting every 400 ms compact about once per interval between them; old revisions get 410', async (t) => {
  const config = { compactionIntervalMs: 400 };
  const opts = { storage: 'etcd' as const, etcd: { endpoints: etcd().endpoints }, config };
  const [a, c] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
  t.teardown(() => Promise.all([a.close(), c.close()]));
  const old = (await a.request('GET', '/api/v1/namespaces')).body.metadata.resourceVersion;
  const before = await compactKeyVersion();
  const started = Date.now();
  // Writes through both servers, so every interval has new history to compact.
  while (Date.now() - started < 3000) {
    await Promise.all([createNamespace(a, 'compact-a'), createNamespace(c, 'compact-c')]);
    await sleep(20);
  }
  const rounds = (await compactKeyVersion()) - before;
  const intervals = (Date.now() - started) / 400;
  t.log(`${rounds} compactions in ${intervals.toFixed(1)} intervals`);
  t.true(rounds >= 3, `${rounds} compactions`);
  t.true(rounds <= intervals + 2, `${rounds} compactions in ${intervals.toFixed(1)} intervals: both servers compacted`);

  const expired = await a.request('GET', `/api/v1/namespaces?resourceVersion=${old}&resourceVersionMatch=Exact`);
  t.is(expired.status, 410);
  t.is(expired.body.reason, 'Expired');
});
