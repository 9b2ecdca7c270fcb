import test from 'ava';
import { CompactedError } from '../../../../../core/contracts/kv-store.js';
import { MemoryKV } from '../../../../../plugins/storage/memory/memory-kv.js';

const value = (i: number) => new TextEncoder().encode(String(i).padStart(10, '0'));

test('superseded values are bounded in bytes: past the bound the store compacts its oldest revisions itself', async (t) => {
  const kv = new MemoryKV({ historyMaxBytes: 100 });
  const created = await kv.create('/k', value(0));
  let rev = created.revision;
  for (let i = 1; i <= 50; i++) rev = (await kv.update('/k', value(i), rev)).revision;
  const compacted = await kv.compactedRevision();
  t.true(compacted > created.revision, `compacted at ${compacted}`);
  // 10-byte values: between 50 and 100 bytes of superseded values (5 to 10 versions) are kept.
  t.is(new TextDecoder().decode((await kv.get('/k', { revision: rev - 4 })).kv?.value), '0000000046');
  await t.throwsAsync(kv.get('/k', { revision: rev - 12 }), { instanceOf: CompactedError });
  t.is(new TextDecoder().decode((await kv.get('/k')).kv?.value), '0000000050');
  await kv.close();
});

test('deleted keys count too, and writes go on after the store compacted itself', async (t) => {
  const kv = new MemoryKV({ historyMaxBytes: 100 });
  for (let i = 0; i < 20; i++) {
    const { revision } = await kv.create(`/k${i}`, value(i));
    await kv.delete(`/k${i}`, revision);
  }
  t.true((await kv.compactedRevision()) > 0);
  t.is((await kv.range('/')).count, 0);
  const again = await kv.create('/k0', value(99));
  t.true(again.succeeded);
  t.is((await kv.range('/')).count, 1);
  await kv.close();
});
