import test from 'ava';
import { DispatchRound } from '../../../../core/watch/dispatch-round.js';
import type { CacheEvent } from '../../../../core/watch/cache-event.js';
import type { CacheWatcher } from '../../../../core/watch/cache-watcher.js';

function event(revision: number, key = '/widgets/ns/w1'): CacheEvent {
  return { type: 'MODIFIED', key, object: { metadata: { name: key, resourceVersion: String(revision) } }, revision };
}

interface Recorded extends CacheWatcher {
  batches: (readonly CacheEvent[])[];
}

function watcher(keyPrefix: string, last: number): Recorded {
  const batches: (readonly CacheEvent[])[] = [];
  return { keyPrefix, last, batches, deliver: (events) => batches.push(events), terminate: () => {} };
}

const revisions = (w: Recorded) => w.batches.map((b) => b.map((e) => e.revision));

test('an event that arrives during a round reaches the watchers the round has not served yet, and the others in the next round, once each', (t) => {
  const watchers = [watcher('/widgets/ns/', 1), watcher('/widgets/ns/', 1), watcher('/widgets/ns/', 1)];
  const first = new DispatchRound([event(2)], 2, watchers);
  const watching = new Set(watchers);
  first.serveNext(1, watching);
  const late = event(3);
  first.add(late);
  first.serveNext(2, watching);
  t.true(first.done);
  // The next round carries what arrived since the first began; the watchers that have it already are skipped.
  const second = new DispatchRound([late], 3, watchers);
  second.serveNext(3, watching);
  t.true(second.done);

  t.deepEqual(watchers.map(revisions), [[[2], [3]], [[2, 3]], [[2, 3]]]);
  t.deepEqual(watchers.map((w) => w.last), [3, 3, 3]);
});

test('watchers at the same point of the same prefix are handed one array; other prefixes and points get their own', (t) => {
  const a = watcher('/widgets/a/', 1);
  const a2 = watcher('/widgets/a/', 1);
  const ahead = watcher('/widgets/a/', 2); // subscribed from a later revision while the round waited
  const b = watcher('/widgets/b/', 1);
  const all = watcher('/widgets/', 1);
  const watchers = [a, a2, ahead, b, all];
  new DispatchRound([event(2, '/widgets/a/x'), event(3, '/widgets/b/y'), event(4, '/widgets/a/z')], 4, watchers).serveNext(5, new Set(watchers));

  t.is(a.batches[0], a2.batches[0]);
  t.deepEqual([a, ahead, b, all].map(revisions), [[[2, 4]], [[4]], [[3]], [[2, 3, 4]]]);
});

test('a watcher with nothing new in the round, or no longer watching, is not called', (t) => {
  const other = watcher('/widgets/b/', 1);
  const upToDate = watcher('/widgets/a/', 2);
  const gone = watcher('/widgets/a/', 1); // unsubscribed after the round began
  const round = new DispatchRound([event(2, '/widgets/a/x')], 2, [other, upToDate, gone]);
  round.serveNext(3, new Set([other, upToDate]));
  t.true(round.done);
  t.deepEqual(gone.batches, []);
  t.deepEqual([other.batches, upToDate.batches], [[], []]);
  t.deepEqual([other.last, upToDate.last], [1, 2]);
});
