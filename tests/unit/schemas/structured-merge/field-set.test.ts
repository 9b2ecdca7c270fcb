import test from 'ava';
import { FieldSet } from '../../../../schemas/structured-merge/field-set.js';
import { pathString } from '../../../../schemas/structured-merge/path-element.js';

const p = (s: string) => s.split('.').map((x) => (x.startsWith('k:') || x.startsWith('v:') || x.startsWith('i:') ? x : `f:${x}`));
const set = (...paths: string[]) => FieldSet.of(...paths.map(p));
const list = (s: FieldSet) => s.paths().map(pathString);

test('insert, has and iteration order (members of a node, then its children, each in order)', (t) => {
  const s = set('spec.replicas', 'spec', 'metadata.labels.app', 'apiVersion', 'spec.ports.k:{"port":80}.name');
  t.true(s.has(p('spec')));
  t.true(s.has(p('spec.replicas')));
  t.false(s.has(p('metadata.labels')));
  t.false(s.has([]));
  t.deepEqual(list(s), ['.apiVersion', '.spec', '.metadata.labels.app', '.spec.replicas', '.spec.ports[port=80].name']);
});

test('union, intersection', (t) => {
  const a = set('a', 'b.c', 'b.d');
  const b = set('b.d', 'b.e', 'f');
  t.deepEqual(list(a.union(b)), ['.a', '.f', '.b.c', '.b.d', '.b.e']);
  t.deepEqual(list(a.intersection(b)), ['.b.d']);
  t.true(a.intersection(set('x.y')).isEmpty());
  t.is(a.union(FieldSet.EMPTY), a, 'unchanged sets keep their identity');
});

test('difference removes members only; recursive difference also removes what is under a member', (t) => {
  const s = set('a', 'a.b', 'a.c', 'd');
  t.deepEqual(list(s.difference(set('a'))), ['.d', '.a.b', '.a.c'], 'parent − child = parent; a member does not remove children');
  t.deepEqual(list(set('a.b').difference(set('a'))), ['.a.b']);
  t.deepEqual(list(s.recursiveDifference(set('a'))), ['.d']);
  t.deepEqual(list(s.difference(set('a.b', 'a.c'))), ['.a', '.d'], 'no empty child is left');
  t.is(s.difference(set('x')), s);
  t.true(s.difference(s).isEmpty());
});

test('equals', (t) => {
  t.true(set('a.b', 'c').equals(set('c', 'a.b')));
  t.false(set('a.b').equals(set('a')));
  t.false(set('a.b').equals(set('a.b', 'a')));
});
