// The webhook authorizer's answer cache: entries expire after their own TTL; when full, the least recently used goes.
import test from 'ava';
import { ExpiringCache } from '../../../../plugins/auth/expiring-cache.js';

test('entries expire after their TTL', (t) => {
  let now = 1000;
  const cache = new ExpiringCache<string>(10, () => now);
  cache.set('allowed', 'a', 300);
  cache.set('refused', 'r', 30);
  now += 29;
  t.is(cache.get('refused'), 'r');
  now += 1;
  t.is(cache.get('refused'), undefined);
  t.is(cache.get('allowed'), 'a');
  now += 270;
  t.is(cache.get('allowed'), undefined);
});

test('when full, the least recently used entry makes room', (t) => {
  const cache = new ExpiringCache<number>(2, () => 0);
  cache.set('a', 1, 10);
  cache.set('b', 2, 10);
  t.is(cache.get('a'), 1); // b is now the least recently used
  cache.set('c', 3, 10);
  t.is(cache.get('b'), undefined);
  t.is(cache.get('a'), 1);
  t.is(cache.get('c'), 3);
});
