import test from 'ava';
import { AbsentOwners } from '../../../../builtin/garbagecollector/absent-owners.js';

test('a cluster-scoped owner is gone for every dependent, a namespaced one for its namespace only', (t) => {
  const absent = new AbsentOwners(10);
  absent.add('cluster', '');
  absent.add('namespaced', 'ns-a');
  t.true(absent.has('cluster', 'ns-b'));
  t.true(absent.has('cluster', ''));
  t.true(absent.has('namespaced', 'ns-a'));
  t.false(absent.has('namespaced', 'ns-b'));
  t.false(absent.has('namespaced', ''), 'a cluster-scoped dependent’s reference to it is invalid, not dangling');
  t.false(absent.has('unknown', 'ns-a'));
});

test('the least recently used owner is forgotten beyond the capacity', (t) => {
  const absent = new AbsentOwners(2);
  absent.add('a', '');
  absent.add('b', '');
  t.true(absent.has('a', '')); // a is now the most recently used
  absent.add('c', '');
  t.false(absent.has('b', ''));
  t.true(absent.has('a', ''));
  t.true(absent.has('c', ''));
});
