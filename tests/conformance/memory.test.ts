import { MemoryKV } from '../../plugins/storage/memory/memory-kv.js';
import { kvConformance } from './kv-conformance.js';

kvConformance('memory', async () => {
  const kv = new MemoryKV();
  return { kv, cleanup: () => kv.close() };
});

// Tiny watch catch-up chunks exercise the replay → live hand-over many times per test.
kvConformance('memory (small replay chunks)', async () => {
  const kv = new MemoryKV({ replayChunk: 3 });
  return { kv, cleanup: () => kv.close() };
});
