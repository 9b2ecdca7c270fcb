import test from 'ava';
import { SlotPool, type Reservation } from '../../../../builtin/services/slot-pool.js';

/** A "random" source that always starts at the beginning of a band. */
const first = () => 0;

test('dynamic picks come from above the static band first, then from it; none when full', (t) => {
  const pool = new SlotPool(4, 2, first);
  const r: Reservation = { slots: [] };
  const picks: (number | undefined)[] = [];
  for (let i = 0; i < 5; i++) {
    const slot = pool.pickFree();
    picks.push(slot);
    if (slot !== undefined) pool.reserve(slot, r);
  }
  t.deepEqual(picks, [2, 3, 0, 1, undefined]);
});

test('a slot held by a stored Service or reserved by a write in flight is not free; unreserving or dropping frees it', (t) => {
  const pool = new SlotPool(2, 0, first);
  pool.hold(0, 'ns/a');
  const r: Reservation = { slots: [] };
  pool.reserve(1, r);
  t.is(pool.pickFree(), undefined);
  t.is(pool.holder(0), 'ns/a');
  t.true(pool.isReserved(1));
  pool.drop(0, 'ns/other');
  t.is(pool.holder(0), 'ns/a', 'only the holder drops it');
  pool.drop(0, 'ns/a');
  pool.unreserve(1, r);
  t.deepEqual([pool.pickFree(), pool.pickFree(new Set([0]))], [0, 1]);
  t.deepEqual(r.slots, [{ pool, slot: 1 }]);
});

test('a pool smaller than its static band hands out its own slots only', (t) => {
  const pool = new SlotPool(3, 16, first);
  const r: Reservation = { slots: [] };
  const picks = [0, 1, 2, 3].map(() => {
    const slot = pool.pickFree();
    if (slot !== undefined) pool.reserve(slot, r);
    return slot;
  });
  t.deepEqual(picks, [0, 1, 2, undefined]);
});
