import test from 'ava';
import { parseCpuList } from '../../../bench/cpu-pinning.js';

test('the kernel CPU list format (Cpus_allowed_list) is read into CPU numbers', (t) => {
  t.deepEqual(parseCpuList('0-1'), [0, 1]);
  t.deepEqual(parseCpuList('0-1,4,6-7'), [0, 1, 4, 6, 7]);
  t.deepEqual(parseCpuList('3'), [3]);
});

test('an unreadable CPU list gives no CPUs (no pinning), not a wrong one', (t) => {
  t.deepEqual(parseCpuList(''), []);
  t.deepEqual(parseCpuList('0-x'), []);
});
