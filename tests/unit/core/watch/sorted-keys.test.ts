import test from 'ava';
import { SortedKeys } from '../../../../core/watch/sorted-keys.js';

/** A deterministic shuffle (xorshift), so a failure can be replayed. */
function shuffled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const j = Math.abs(s) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const key = (i: number) => `/registry/example.com/widgets/default/w${i}`;

test('keys added in any order are read in ascending byte order', (t) => {
  const keys = new SortedKeys();
  const all = Array.from({ length: 100 }, (_, i) => key(i));
  for (const k of shuffled(all)) keys.add(k);
  t.deepEqual(keys.all(), [...all].sort());
});

test('keys added and removed between reads are merged into the keys already there', (t) => {
  const keys = new SortedKeys();
  keys.reset([key(1), key(3), key(5)]);
  keys.add(key(4));
  keys.remove(key(3));
  keys.add(key(0));
  t.deepEqual(keys.all(), [key(0), key(1), key(4), key(5)]);
  keys.remove(key(0));
  keys.add(key(9));
  t.deepEqual(keys.all(), [key(1), key(4), key(5), key(9)]);
});

test('a key removed and added again before a read is there once; one added and removed again is not there', (t) => {
  const keys = new SortedKeys();
  keys.reset([key(1), key(2)]);
  keys.remove(key(1));
  keys.add(key(1));
  keys.add(key(3));
  keys.remove(key(3));
  t.deepEqual(keys.all(), [key(1), key(2)]);
});

test('an array read earlier stays as it was after later changes', (t) => {
  const keys = new SortedKeys();
  keys.reset([key(1), key(2)]);
  const before = keys.all();
  keys.add(key(0));
  keys.remove(key(2));
  t.deepEqual(keys.all(), [key(0), key(1)]);
  t.deepEqual(before, [key(1), key(2)]);
});

test('thousands of changes between reads (merged on the way) give the same keys as sorting them all', (t) => {
  const keys = new SortedKeys();
  const present = new Set<string>();
  const all = shuffled(Array.from({ length: 5000 }, (_, i) => key(i)), 11);
  for (const k of all) {
    keys.add(k);
    present.add(k);
  }
  for (const k of shuffled(all, 5).slice(0, 3000)) {
    keys.remove(k);
    present.delete(k);
  }
  for (const k of all.slice(0, 1500)) {
    if (present.has(k)) continue;
    keys.add(k);
    present.add(k);
  }
  t.deepEqual(keys.all(), [...present].sort());
});

test('reset starts again from the given keys', (t) => {
  const keys = new SortedKeys();
  keys.add(key(7));
  keys.reset([key(1)]);
  t.deepEqual(keys.all(), [key(1)]);
});
