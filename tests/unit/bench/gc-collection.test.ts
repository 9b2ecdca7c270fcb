import test from 'ava';
import { CollectionWatch, ResponseTimes } from '../../../bench/gc-collection.js';

const event = (type: string, name: string) => JSON.stringify({ type, object: { kind: 'Widget', metadata: { name } } }) + '\n';

test('a collection is done when the owner and every dependent were seen DELETED, with the times they arrived', (t) => {
  const w = new CollectionWatch('owner', ['d1', 'd2']);
  w.feed(event('ADDED', 'other') + event('MODIFIED', 'owner') + event('DELETED', 'd2'), 10);
  t.false(w.done);
  w.feed(event('DELETED', 'owner'), 20);
  t.false(w.done);
  w.feed(event('DELETED', 'other') + event('DELETED', 'd1'), 30);
  t.true(w.done);
  t.deepEqual(w.result, { gone: 2, dependents: 2, firstDependentGoneAt: 10, lastDependentGoneAt: 30, ownerGoneAt: 20 });
});

test('an event split across chunks counts once, at the arrival of its last byte', (t) => {
  const w = new CollectionWatch('owner', ['d1']);
  const line = event('DELETED', 'd1');
  w.feed(event('DELETED', 'owner') + line.slice(0, 15), 5);
  t.is(w.result.gone, 0);
  w.feed(line.slice(15), 7);
  w.feed(line, 9); // a repeated DELETED of the same dependent is not another one gone
  t.true(w.done);
  t.deepEqual(w.result, { gone: 1, dependents: 1, firstDependentGoneAt: 7, lastDependentGoneAt: 7, ownerGoneAt: 5 });
});

test('an ERROR event ends the measurement', (t) => {
  const w = new CollectionWatch('owner', ['d1']);
  const error = JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } }) + '\n';
  t.throws(() => w.feed(error, 1), { message: /ERROR event.*Expired/ });
});

test('the rate of responses over a window counts those in [from, to)', (t) => {
  const r = new ResponseTimes();
  for (const at of [0, 500, 999, 1000, 1500, 2500]) r.add(at);
  t.is(r.count(500, 1500), 3);
  t.is(r.ratePerSecond(0, 1000), 3);
  t.is(r.ratePerSecond(1000, 3000), 1.5);
  t.throws(() => r.ratePerSecond(10, 10), { message: /empty window/ });
});
