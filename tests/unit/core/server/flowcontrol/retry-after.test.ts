import test from 'ava';
import { RetryAfter } from '../../../../../core/server/flowcontrol/retry-after.js';

test("Retry-After doubles under sustained rejections (up to 32 s) and comes back down by one when they stop, as kube's tracker", (t) => {
  const r = new RetryAfter();
  t.is(r.seconds, 1);
  let second = 1_000;
  const rejectDuring = (seconds: number, perSecond: number) => {
    for (let s = 0; s < seconds; s++, second++) for (let i = 0; i < perSecond; i++) r.recordRejection(second * 1000);
  };
  rejectDuring(2, 3);
  t.is(r.seconds, 2, '3 rejections in the last second: doubled');
  rejectDuring(40, 100);
  t.is(r.seconds, 32);
  second += 100;
  rejectDuring(1, 1);
  t.is(r.seconds, 31, 'fewer rejections than Retry-After: one less');
});
