import test from 'ava';
import { EventHistory } from '../../../../core/watch/event-history.js';
import { encodedOnce, type CacheEvent } from '../../../../core/watch/cache-event.js';

function event(revision: number): CacheEvent {
  return { type: 'MODIFIED', key: `/k/${revision}`, object: { metadata: { name: String(revision) } }, revision };
}

test('since(r) returns exactly the events after r, oldest first', (t) => {
  const h = new EventHistory(10, 100, 60_000, Infinity);
  for (const r of [11, 12, 15, 20]) h.append(event(r), 1);
  t.deepEqual(h.since(10)?.map((e) => e.revision), [11, 12, 15, 20]);
  t.deepEqual(h.since(12)?.map((e) => e.revision), [15, 20]);
  t.deepEqual(h.since(13)?.map((e) => e.revision), [15, 20]);
  t.deepEqual(h.since(20), []);
  t.deepEqual(h.since(99), []);
});

test('a revision before the start of the history is not served', (t) => {
  const h = new EventHistory(10, 100, 60_000, Infinity);
  h.append(event(11), 1);
  t.is(h.since(9), undefined);
});

test('the count bound drops the oldest events and moves the start', (t) => {
  const h = new EventHistory(0, 3, 60_000, Infinity);
  for (let r = 1; r <= 5; r++) h.append(event(r), 1);
  t.is(h.size, 3);
  t.is(h.startRevision, 2);
  t.is(h.since(1), undefined);
  t.deepEqual(h.since(2)?.map((e) => e.revision), [3, 4, 5]);
});

test('trim drops events older than the window', (t) => {
  const h = new EventHistory(0, 100, 1000, Infinity);
  h.append(event(1), 1, 0);
  h.append(event(2), 1, 500);
  h.append(event(3), 1, 1500);
  h.trim(1600);
  t.is(h.startRevision, 2);
  t.deepEqual(h.since(2)?.map((e) => e.revision), [3]);
});

test('a long run of appends past the bound keeps the newest in order', (t) => {
  const h = new EventHistory(0, 1000, 60_000, Infinity);
  for (let r = 1; r <= 10_000; r++) h.append(event(r), 1);
  t.is(h.size, 1000);
  const tail = h.since(9000)!;
  t.is(tail.length, 1000);
  t.is(tail[0]!.revision, 9001);
  t.is(tail[999]!.revision, 10_000);
});

test('the byte bound drops the oldest events until the rest fit; the newest stays whatever it weighs', (t) => {
  const h = new EventHistory(0, 100, 60_000, 10);
  h.append(event(1), 4);
  h.append(event(2), 4);
  t.is(h.size, 2);
  h.append(event(3), 4);
  t.deepEqual(h.since(1)?.map((e) => e.revision), [2, 3]);
  h.append(event(4), 50);
  t.is(h.size, 1);
  t.is(h.startRevision, 3);
  h.append(event(5), 1);
  t.is(h.startRevision, 4);
  t.deepEqual(h.since(4)?.map((e) => e.revision), [5]);
});

test('encodings memoized on an event count toward the byte bound while the history keeps it', (t) => {
  const h = new EventHistory(0, 100, 60_000, 10);
  const first = event(1);
  h.append(first, 4);
  h.append(event(2), 4);
  t.deepEqual(h.since(0)?.map((e) => e.revision), [1, 2]);
  encodedOnce(first, 'json', () => Buffer.alloc(3));
  t.is(h.since(0), undefined, 'the first event with its encoding no longer fits');
  t.deepEqual(h.since(1)?.map((e) => e.revision), [2]);
  encodedOnce(first, 'yaml', () => Buffer.alloc(8));
  h.append(event(3), 4);
  t.deepEqual(h.since(1)?.map((e) => e.revision), [2, 3], "a dropped event's later encodings weigh nothing");
});
