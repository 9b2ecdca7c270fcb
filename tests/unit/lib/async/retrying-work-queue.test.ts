import test from 'ava';
import { RetryingWorkQueue } from '../../../../lib/async/retrying-work-queue.js';

/** A queue whose work on each key waits until the test lets it finish. */
function controlledQueue(concurrency: number) {
  const runs: string[] = [];
  const pending = new Map<string, () => void>();
  const queue = new RetryingWorkQueue(
    (key) => {
      runs.push(key);
      return new Promise((resolve) => pending.set(key, () => resolve('done')));
    },
    { concurrency, baseDelayMs: 1, maxDelayMs: 1, what: 'test' },
  );
  const finish = async (key: string) => {
    pending.get(key)!();
    pending.delete(key);
    await new Promise((r) => setImmediate(r));
  };
  return { queue, runs, pending, finish };
}

test('a key added again while queued runs once; one added while in work runs again after', async (t) => {
  const { queue, runs, finish } = controlledQueue(1);
  queue.add('a');
  queue.add('b');
  queue.add('b');
  t.deepEqual(runs, ['a'], 'one at a time');
  queue.add('a'); // in work: again after
  await finish('a');
  t.deepEqual(runs, ['a', 'b']);
  await finish('b');
  t.deepEqual(runs, ['a', 'b', 'a']);
  await finish('a');
  t.deepEqual(runs, ['a', 'b', 'a']);
  queue.stop();
});

test('no more than `concurrency` keys are in work, and nothing runs after stop', async (t) => {
  const { queue, runs, finish } = controlledQueue(2);
  for (const key of ['a', 'b', 'c']) queue.add(key);
  t.deepEqual(runs, ['a', 'b']);
  await finish('a');
  t.deepEqual(runs, ['a', 'b', 'c']);
  queue.stop();
  queue.add('d');
  await finish('b');
  t.deepEqual(runs, ['a', 'b', 'c']);
});
